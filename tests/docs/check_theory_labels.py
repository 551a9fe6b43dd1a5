#!/usr/bin/env python3
"""Checks that the documentation the code points at exists in the repository.

1. Every citation of a theory file in a source comment, written
       docs/theory/<file>.md §<section>, ... (<label>, <label>-<label>, ...)
   names an existing file of docs/theory/, and every section and equation label after it is
   defined there (a heading numbered <section>; a bold tag **(<label>)** in front of an equation).
2. The label families C, D and O (gvs.md's appendix and oracle labels) may be cited bare
   (`// C29`); each such label must be defined in docs/theory/gvs.md.
3. No source comment, and no page of docs/ or README.md, cites a theory-*.md digest or a
   ../shared/ document outside the repository.
4. Every repository path written in backticks in docs/ARCHITECTURE.md exists.

Usage: check_theory_labels.py [repository root]   (default: two levels above this file)
Prints one line per problem, file:line first, and exits 1 if there is any.
"""

import os
import re
import sys

SOURCE_DIRS = ("core", "ui", "app", "python", "tests")
SOURCE_EXTENSIONS = (".hpp", ".cpp", ".h", ".py", ".cmake")
BARE_FAMILY_FILE = "gvs.md"

LABEL = r"[A-Z]{0,2}\d+[a-z]?"
DEFINITION = re.compile(r"\*\*\((" + LABEL + r")\)(?:\s*[–-]\s*\((" + LABEL + r")\))?\*\*")
HEADING = re.compile(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s")
CITATION = re.compile(r"theory/([A-Za-z0-9_-]+)\.md")
SECTIONS_AFTER = re.compile(r"\s*((?:§\d+(?:\.\d+)*(?:\s*,\s*|\s+and\s+)?)*)")
PARENS_AFTER = re.compile(r"\s*\(([^()]*)\)")
LABEL_TOKEN = re.compile(r"^" + LABEL + r"$")
BARE_LABEL = re.compile(r"(?<![\w./-])([CDO]\d{1,2}[a-z]?)\b")
DIGEST = re.compile(r"theory-[a-z-]+\.md")


def split_label(label):
    match = re.match(r"^([A-Z]*)(\d+)([a-z]?)$", label)
    return match.group(1), int(match.group(2)), match.group(3)


def expand_range(first, last):
    """(C9, C13) -> C9 ... C13 when both share a prefix and carry no letter suffix."""
    p1, n1, s1 = split_label(first)
    p2, n2, s2 = split_label(last)
    if p1 != p2 or s1 or s2 or n2 < n1 or n2 - n1 > 50:
        return [first, last]
    return [f"{p1}{n}" for n in range(n1, n2 + 1)]


def read_theory(theory_dir):
    """{file name: (labels, sections)} for every Markdown file of docs/theory/."""
    files = {}
    for name in sorted(os.listdir(theory_dir)):
        if not name.endswith(".md"):
            continue
        labels, sections = set(), set()
        with open(os.path.join(theory_dir, name), encoding="utf-8") as f:
            for line in f:
                heading = HEADING.match(line)
                if heading:
                    sections.add(heading.group(1))
                for match in DEFINITION.finditer(line):
                    if match.group(2):
                        labels.update(expand_range(match.group(1), match.group(2)))
                    else:
                        labels.add(match.group(1))
        files[name] = (labels, sections)
    return files


def comment_of(line, extension):
    """The comment text of a source line ('' if none); strings are not parsed."""
    marker = "#" if extension in (".py", ".cmake") else "//"
    at = line.find(marker)
    return line[at:] if at >= 0 else ""


def cited_labels(text):
    """Labels in the parenthesis after a citation: 'C19, C20', 'D77-D80', '52a, 52b'."""
    labels = []
    for token in re.split(r"[,;]\s*|\s+", text.strip()):
        token = token.strip()
        ends = re.split(r"[–-]", token)
        if len(ends) == 2 and all(LABEL_TOKEN.match(e) for e in ends):
            labels.extend([ends[0], ends[1]])
        elif LABEL_TOKEN.match(token):
            labels.append(token)
    return labels


def check_comment(comment, where, theory, problems):
    if DIGEST.search(comment):
        problems.append(f"{where}: cites {DIGEST.search(comment).group(0)}, a digest outside the "
                        "repository; cite docs/theory/<file>.md (label) instead")
    covered = []  # spans of explicit citations, whose labels are not bare
    for match in CITATION.finditer(comment):
        name = match.group(1) + ".md"
        end = match.end()
        if name not in theory:
            problems.append(f"{where}: cites docs/theory/{name}, which does not exist")
            continue
        labels, sections = theory[name]
        after = SECTIONS_AFTER.match(comment, end)
        for section in re.findall(r"§(\d+(?:\.\d+)*)", after.group(1)):
            if section not in sections:
                problems.append(f"{where}: docs/theory/{name} has no section §{section}")
        end = after.end()
        parens = PARENS_AFTER.match(comment, end)
        if parens:
            for label in cited_labels(parens.group(1)):
                if label not in labels:
                    problems.append(f"{where}: docs/theory/{name} defines no label ({label})")
            end = parens.end()
        covered.append((match.start(), end))
    bare_labels = theory.get(BARE_FAMILY_FILE, (set(), set()))[0]
    for match in BARE_LABEL.finditer(comment):
        if any(start <= match.start() < stop for start, stop in covered):
            continue
        if match.group(1) not in bare_labels:
            problems.append(f"{where}: label {match.group(1)} is not defined in "
                            f"docs/theory/{BARE_FAMILY_FILE}")


def check_sources(root, theory, problems):
    for top in SOURCE_DIRS:
        for directory, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                extension = os.path.splitext(name)[1]
                if extension not in SOURCE_EXTENSIONS or name == os.path.basename(__file__):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        comment = comment_of(line, extension)
                        if comment:
                            where = f"{os.path.relpath(path, root)}:{number}"
                            check_comment(comment, where, theory, problems)


PATH_LIKE = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_./+-]*$")
KNOWN_EXTENSIONS = (".hpp", ".cpp", ".h", ".py", ".md", ".cmake", ".txt", ".json", ".yml",
                    ".yaml", ".qrc", ".ui", ".png", ".svg", ".desktop", ".in", ".sh", ".urdf",
                    ".xml", ".csv")
TOP_LEVEL = ("core", "ui", "app", "python", "tests", "docs", "cmake", "resources", "examples",
             "installer")


def exists_or_stem(path):
    """A path, or a path stem such as core/io/json_io for json_io.hpp and json_io.cpp."""
    if os.path.exists(path):
        return True
    directory, stem = os.path.split(path)
    return os.path.isdir(directory) and any(
        os.path.splitext(name)[0] == stem for name in os.listdir(directory))


def check_architecture(root, problems):
    """Backticked repository paths of docs/ARCHITECTURE.md: a path with a top-level directory is
    taken from the root; a bare file name must exist somewhere in the tree."""
    path = os.path.join(root, "docs", "ARCHITECTURE.md")
    basenames = set()
    for directory, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
        basenames.update(names)
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            for token in re.findall(r"`([^`\n]+)`", line):
                token = token.split("::")[0].rstrip(",;:")
                if not PATH_LIKE.match(token) or token.startswith("build"):
                    continue
                first = token.split("/")[0]
                if "/" in token and first in TOP_LEVEL:
                    if not exists_or_stem(os.path.join(root, token)):
                        problems.append(f"docs/ARCHITECTURE.md:{number}: `{token}` does not exist")
                elif "/" not in token and token.endswith(KNOWN_EXTENSIONS):
                    if token not in basenames:
                        problems.append(f"docs/ARCHITECTURE.md:{number}: no file named `{token}`")


OUTSIDE = re.compile(r"\btheory-[a-z][a-z-]*|\.\./shared/")


def check_pages(root, problems):
    """The Markdown pages, the schema and the examples (their text reaches the studio's
    tooltips and title bar) point only at documents inside the repository."""
    pages = [os.path.join(root, "README.md")]
    for directory, _, names in os.walk(os.path.join(root, "docs")):
        pages += [os.path.join(directory, n) for n in sorted(names) if n.endswith(".md")]
    for directory, _, names in os.walk(os.path.join(root, "resources")):
        pages += [os.path.join(directory, n) for n in sorted(names) if n.endswith(".json")]
    for path in pages:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                match = OUTSIDE.search(line)
                if match:
                    problems.append(f"{os.path.relpath(path, root)}:{number}: points at "
                                    f"{match.group(0)}, outside the repository")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", ".."))
    theory = read_theory(os.path.join(root, "docs", "theory"))
    problems = []
    check_sources(root, theory, problems)
    check_architecture(root, problems)
    check_pages(root, problems)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s)")
        return 1
    count = sum(len(labels) for labels, _ in theory.values())
    print(f"docs/theory: {len(theory)} files, {count} labels; every cited label resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())

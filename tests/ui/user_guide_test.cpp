// Help > User Guide: it opens from the menu, walks through build, simulate, scrub and export,
// and every menu path it names ("**File › Examples**") exists in the studio's menus.

#include <gtest/gtest.h>

#include <QAction>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSettings>
#include <QTest>
#include <QTextBrowser>

#include "ui/main_window.hpp"
#include "ui/user_guide_dialog.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

QString plain(QString text) {
  return text.remove('&').remove(QStringLiteral("...")).trimmed();
}

// the action at \p path ("Simulate", "Settings") in \p bar; a last part ending in "…" matches
// the first item it begins
QAction* actionAt(QMenuBar* bar, const QStringList& path) {
  QList<QAction*> actions = bar->actions();
  QAction* found = nullptr;
  for (const QString& part : path) {
    const bool prefix = part.endsWith(QStringLiteral("…"));
    const QString wanted = prefix ? part.chopped(1).trimmed() : part;
    found = nullptr;
    for (QAction* action : actions) {
      const QString text = plain(action->text());
      if (prefix ? text.startsWith(wanted) : text == wanted) {
        found = action;
        break;
      }
    }
    if (found == nullptr) return nullptr;
    actions = found->menu() != nullptr ? found->menu()->actions() : QList<QAction*>();
  }
  return found;
}

TEST(UserGuide, OpensFromTheHelpMenuAndWalksThroughTheWorkflow) {
  QSettings().clear();
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  QAction* open_guide = window.findChild<QAction*>("userGuideAction");
  ASSERT_NE(open_guide, nullptr);
  EXPECT_EQ(open_guide, actionAt(window.menuBar(), {"Help", "User Guide"}));
  open_guide->trigger();
  auto* dialog = window.findChild<UserGuideDialog*>();
  ASSERT_NE(dialog, nullptr);
  ASSERT_TRUE(QTest::qWaitForWindowExposed(dialog));
  const QString text = dialog->browser()->toPlainText();
  for (const char* step : {"Build a robot", "Simulate", "Scrub and review", "Export", "Keyboard"}) {
    EXPECT_TRUE(text.contains(step)) << step;
  }
  EXPECT_GT(text.size(), 3000);
  test::saveScreenshot(dialog->grab().toImage(), "user_guide");
  open_guide->trigger();  // again: the same window comes to the front
  EXPECT_EQ(window.findChildren<UserGuideDialog*>().size(), 1);
}

TEST(UserGuide, EveryMenuPathItNamesExists) {
  MainWindow window;
  const QRegularExpression menu_path(
      QStringLiteral("\\*\\*((?:File|Edit|Model|View|Simulate|Help) › [^*]+)\\*\\*"));
  int checked = 0;
  for (const auto& match : menu_path.globalMatch(UserGuideDialog::markdown())) {
    const QStringList path = match.captured(1).split(QStringLiteral(" › "));
    EXPECT_NE(actionAt(window.menuBar(), path), nullptr)
        << "the guide names " << match.captured(1).toStdString() << ", which no menu has";
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

}  // namespace
}  // namespace tendril

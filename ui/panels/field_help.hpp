#pragma once
// What the studio says about a field of the robot description: a human name ("Young's modulus"
// for youngs_modulus), the explanation the model schema gives it
// (resources/schemas/robot.schema.json, compiled into the studio), and one numbering for people:
// list items and index fields count from 1 on screen, where JSON pointers count from 0.

#include <QString>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace tendril {

/// \brief Human name of the field at JSON \p pointer: "Young's modulus", "Division 2" for
///        /links/0/soft/divisions/1, "Point 3" for a table's third point.
[[nodiscard]] QString fieldLabel(const std::string& pointer);

/// \brief The schema's explanation of the field at \p pointer of \p robot (the description's
///        JSON form: where the schema branches by "type", the branch of the field's own type);
///        an item of a list without its own takes the list's; empty when the schema has none.
[[nodiscard]] QString fieldDescription(const nlohmann::json& robot, const std::string& pointer);

/// \brief 1 for fields whose value is an index counted from 0 in JSON and shown from 1 (a cable
///        segment's rod division, a joint input's coordinate), else 0.
[[nodiscard]] int shownIndexOffset(const std::string& pointer);

/// \brief Where \p pointer is, for people: "Link “finger” › Soft rod › Division 1 › Length".
///        Links, cables, loads and loops are named from \p robot when given (and only then: an
///        error about a file being opened must not borrow names from the model on screen).
[[nodiscard]] QString humanPath(const std::string& pointer, const nlohmann::json* robot = nullptr);

/// \brief "/links/2/mass: must be positive" -> "Link 3 › Mass: must be positive" (named from
///        \p robot when given); other messages unchanged. \p pointer receives the JSON pointer
///        when the message began with one.
[[nodiscard]] QString humanMessage(const QString& message, const nlohmann::json* robot = nullptr,
                                   QString* pointer = nullptr);

}  // namespace tendril

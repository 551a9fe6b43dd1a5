#pragma once
// The error of a malformed or physically invalid model, raised by the JSON reader
// (core/io/json_io.hpp) and by buildModel(): both name the JSON pointer of what is wrong.

#include <stdexcept>
#include <string>
#include <utility>

namespace tendril {

/// \brief A malformed or physically invalid model. what() reads "<json pointer>: <reason>".
class ParseError : public std::runtime_error {
 public:
  ParseError(std::string pointer, const std::string& reason)
      : std::runtime_error((pointer.empty() ? std::string("/") : pointer) + ": " + reason),
        pointer_(std::move(pointer)) {}
  const std::string& pointer() const { return pointer_; }

 private:
  std::string pointer_;
};

}  // namespace tendril

#pragma once
// The two kinds of bad input the API distinguishes (DESIGN.md "Errors"): a bad value (std::invalid_argument, a
// RangeError in JS) and a wrong shape — arrays whose lengths do not fit together, such as a prior of 3 entries
// for a histogram of 4 (ShapeError, still a std::invalid_argument for C++ callers, a TypeError in JS).
#include <stdexcept>
#include <string>

namespace privsample {

class ShapeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace privsample

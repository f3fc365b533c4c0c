// String formatting: the `%` operator on strings and str.format, with starlark-go's verbs and
// messages (format.cpp). Internal to starlark/.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "starlark/values.h"

namespace hintkit::starlark {

Value percent_format(const Value& format, const Value& args);
std::string str_format(std::string_view format, std::span<const Value> args,
                       std::span<const Kwarg> kwargs);

}  // namespace hintkit::starlark

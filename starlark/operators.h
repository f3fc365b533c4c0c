// The operators of the language on values (starlark-go's Binary and Unary): arithmetic,
// comparison, `in`, concatenation and repetition, `%` formatting (operators.cpp). Internal to
// starlark/.
#pragma once

#include "starlark/values.h"

namespace hintkit::starlark {

// `op` names the operator in messages ("unknown binary op: T + T").
Value binary_op(BinOp op, const Value& x, const Value& y);
Value unary_op(UnOp op, const Value& x);
bool contains(const Value& container, const Value& x);  // x in container

}  // namespace hintkit::starlark

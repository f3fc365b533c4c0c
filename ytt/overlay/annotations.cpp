// The operations' annotations (ytt's annotations.go, replace_annotation.go, insert_annotation.go
// and assert_annotation.go): which operation an item names and the arguments of
// `#@overlay/replace`, `#@overlay/insert` and `#@overlay/assert`.
#include "ytt/overlay/op.h"

namespace hintkit::ytt::overlay {

namespace {

bool as_bool_kwarg(const sl::Value& v) {
  if (!v.is_bool()) throw Fail{"expected starlark.Bool, but was " + go_type_name(v)};
  return v.as_bool();
}

}  // namespace

const char* op_name(OpKind k) {
  switch (k) {
    case OpKind::kMerge:
      return "overlay/merge";
    case OpKind::kRemove:
      return "overlay/remove";
    case OpKind::kReplace:
      return "overlay/replace";
    case OpKind::kInsert:
      return "overlay/insert";
    case OpKind::kAppend:
      return "overlay/append";
    case OpKind::kAssert:
      return "overlay/assert";
  }
  return "";
}

OpKind which_op(const std::vector<Ann>& anns) {
  static constexpr OpKind kOps[] = {OpKind::kMerge,  OpKind::kRemove, OpKind::kReplace,
                                    OpKind::kInsert, OpKind::kAppend, OpKind::kAssert};
  std::optional<OpKind> found;
  for (const Ann& a : anns) {
    if (!is_overlay_ann(a)) continue;
    for (OpKind k : kOps) {
      if (a.name != op_name(k)) continue;
      if (found && *found != k) throw Fail{"Expected to find only one overlay operation"};
      found = k;
    }
  }
  return found.value_or(OpKind::kMerge);
}

Edit parse_replace(const std::vector<Ann>& anns) {
  Edit e;
  if (const Ann* a = find_ann(anns, "overlay/replace")) {
    for (const auto& [name, v] : a->kwargs) {
      if (name == "via") {
        if (!callable(v)) {
          throw Fail{
              "Expected 'overlay/replace' annotation keyword argument 'via' to be function, but "
              "was " +
              go_type_name(v)};
        }
        e.via = v;
      } else if (name == "or_add") {
        e.or_add = as_bool_kwarg(v);
      } else {
        throw Fail{"Unknown 'overlay/replace' annotation keyword argument '" + name + "'"};
      }
    }
  }
  return e;
}

Edit parse_insert(const std::vector<Ann>& anns) {
  Edit e;
  const Ann* a = find_ann(anns, "overlay/insert");
  if (!a) throw Fail{"Expected item to have 'overlay/insert' annotation"};
  if (a->kwargs.empty()) {
    throw Fail{
        "Expected 'overlay/insert' annotation to have at least one keyword argument (before=..., "
        "after=...)"};
  }
  for (const auto& [name, v] : a->kwargs) {
    if (name == "before") {
      e.before = as_bool_kwarg(v);
    } else if (name == "after") {
      e.after = as_bool_kwarg(v);
    } else if (name == "via") {
      if (!callable(v)) {
        throw Fail{
            "Expected 'overlay/insert' annotation keyword argument 'via' to be function, but was " +
            go_type_name(v)};
      }
      e.via = v;
    } else {
      throw Fail{"Unknown 'overlay/insert' annotation keyword argument '" + name + "'"};
    }
  }
  return e;
}

std::optional<sl::Value> parse_assert(const std::vector<Ann>& anns) {
  std::optional<sl::Value> via;
  if (const Ann* a = find_ann(anns, "overlay/assert")) {
    for (const auto& [name, v] : a->kwargs) {
      if (name == "via") {
        via = v;
      } else {
        throw Fail{"Unknown 'overlay/assert' annotation keyword argument '" + name + "'"};
      }
    }
  }
  return via;
}

}  // namespace hintkit::ytt::overlay

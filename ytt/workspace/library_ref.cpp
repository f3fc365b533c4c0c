// Library addressing of data values and schema documents (ytt's pkg/workspace/ref and the
// envelopes of pkg/workspace/datavalues): which library a document is meant for.
#include "ytt/schema/schema.h"
#include "ytt/workspace/workspace.h"

namespace hintkit::ytt {

namespace {

std::vector<std::string_view> split_on(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    out.push_back(
        s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

}  // namespace

std::vector<LibraryRef> parse_library_ref(std::string_view text) {
  if (text.empty()) throw YttError{"Expected library ref to not be empty"};
  if (text.front() != '@') throw YttError{"Expected library ref to start with '@'"};
  std::vector<LibraryRef> out;
  const auto steps = split_on(text, '@');
  for (size_t i = 1; i < steps.size(); ++i) {
    const auto path_alias = split_on(steps[i], '~');
    if (path_alias.size() == 1) {
      out.push_back({std::string(path_alias[0]), ""});
    } else if (path_alias.size() == 2) {
      if (path_alias[1].empty()) throw YttError{"Expected library alias to not be empty"};
      out.push_back({std::string(path_alias[0]), std::string(path_alias[1])});
    } else {
      throw YttError{
          "Expected library ref to have form: '@path', '@~alias', or '@path~alias', got: '" +
          std::string(text) + "'"};
    }
  }
  return out;
}

std::vector<LibraryRef> library_ref_of(const std::vector<Ann>& anns) {
  const Ann* a = find_ann(anns, "library/ref");
  if (!a) return {};
  if (a->args.size() != 1) {
    throw YttError{"Expected library/ref annotation to have one arg, got " +
                   std::to_string(a->args.size())};
  }
  if (!a->args[0].is(sl::Kind::kString)) {
    throw YttError{"expected a string, but was " + std::string(a->args[0].type_name())};
  }
  return with_context("Annotation library/ref: ",
                      [&] { return parse_library_ref(a->args[0].as_string()); });
}

std::string library_ref_text(const std::vector<LibraryRef>& ref) {
  std::string out;
  for (const auto& step : ref) {
    out += "@" + step.path;
    if (!step.alias.empty()) out += "~" + step.alias;
  }
  return out;
}

std::vector<LibraryRef> data_values_library_ref(const std::vector<Ann>& anns) {
  std::vector<LibraryRef> ref = library_ref_of(anns);
  // Every `@data/values` annotation's keywords count (ytt reads them all).
  for (const auto& a : anns) {
    if (a.name != "data/values") continue;
    for (const auto& [name, value] : a.kwargs) {
      if (name != "after_library_module") {
        throw YttError{"Unknown kwarg " + name + " for annotation data/values"};
      }
      if (!value.is(sl::Kind::kBool)) {
        throw YttError{"expected starlark.Bool, but was " + go_type_name(value)};
      }
      if (ref.empty()) {
        throw YttError{
            "Annotation data/values: Expected kwarg 'after_library_module' to be used with "
            "library/ref annotation"};
      }
    }
  }
  return ref;
}

}  // namespace hintkit::ytt

#include "plugin/values_io.h"

#include <istream>
#include <iterator>
#include <ostream>

#include "fileio/fileio.h"

namespace hintkit::plugin {

diag::Result<std::string> read_stdin(std::istream& in) {
  std::string text;
  // Bounded while reading: `< /dev/zero` stops at the input limit instead of filling memory.
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    const auto n = static_cast<size_t>(in.gcount());
    if (text.size() + n > fileio::kMaxFileBytes) {
      return diag::Error{"cannot read standard input: input is over the limit of " +
                             std::to_string(fileio::kMaxFileBytes) + " bytes",
                         {}};
    }
    text.append(buf, n);
  }
  if (in.bad()) return diag::Error{"cannot read standard input", {}};
  return text;
}

diag::Result<yaml::Node> load_values(const std::string& path, std::istream& in,
                                     diag::Diagnostics& diags, bool show_values) {
  std::string text;
  std::string label = path;
  if (path == "-") {
    label = "<stdin>";
    auto read = read_stdin(in);
    if (!read.ok()) return read.error();
    text = std::move(read).value();
  } else {
    auto read = fileio::read_file(path);
    if (!read.ok()) return read.error();
    text = std::move(read).value();
  }
  yaml::LoadOptions options;
  options.values_in_messages = show_values;
  std::vector<yaml::Document> docs = yaml::load(text, label, diags, options);
  const yaml::Document* doc = nullptr;
  for (const yaml::Document& d : docs) {
    if (d.empty) continue;
    if (doc) {
      diags.error("HK210", d.span, "the values hold more than one YAML document");
      break;
    }
    doc = &d;
  }
  if (!doc) return yaml::make_map();
  // The vars tazuna hands to helmfile have been through sigs.k8s.io/yaml's conversion: keys
  // are strings, and what it refuses (null keys, .inf) cannot be among them. Numbers stay as
  // written: tazuna's own sources give only strings.
  static const yaml::GoType kVars{
      .kind = yaml::GoType::Kind::kMap, .fields = {}, .elem = yaml::GoType::other()};
  yaml::check_go_json(doc->root, kVars, "the values", diags);
  return yaml::go_json_any(doc->root, /*keep_ints=*/true);
}

void write_values(std::ostream& out, const yaml::Node& values, std::string_view format) {
  if (format == "json") {
    out << yaml::emit_json(values, 2) << '\n';
  } else {
    out << yaml::emit_yaml(values);
  }
}

}  // namespace hintkit::plugin

// `hintkit hook presync|prepare`: helmfile runs it with the helmfile's folder as working
// directory, argv as rendered (no shell), stdin /dev/null. The release's `.Values` arrive as
// Go-encoded JSON; they are the provided vars. Values are never printed unless asked for:
// helmfile echoes hook arguments and output into its logs, and values carry secrets.
//
// `--values-json` is read by a strict JSON parser (nlohmann/json), never the YAML loader: text
// that is YAML but not JSON (an unrendered `{{ .Values | toJson }}` reads as a YAML mapping)
// must stop the hook instead of passing with nothing checked.
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_map>

#include "hintfile/hintfile.h"
#include "plugin/commands.h"
#include "plugin/values_io.h"
#include "resolver/resolver.h"

namespace hintkit::plugin {
namespace {

using json = nlohmann::ordered_json;

// Builds the values straight from nlohmann's SAX events, so that nothing on the way can throw:
// malformed text, a number out of a double's range and nesting past the limit each stop the
// parse with their place, and no message ever quotes the text (values carry secrets; nlohmann's
// own messages end in "last read: '<the text>'").
class ValuesBuilder {
 public:
  explicit ValuesBuilder(diag::Span span) : span_(std::move(span)) {}

  bool null() { return value(yaml::make_null()); }
  bool boolean(bool b) { return value(yaml::make_bool(b)); }
  bool number_integer(json::number_integer_t i) { return value(yaml::make_int(i)); }
  bool number_unsigned(json::number_unsigned_t u) {
    yaml::Node n = yaml::make_int(static_cast<int64_t>(u));
    n.is_unsigned = u > static_cast<uint64_t>(INT64_MAX);
    return value(std::move(n));
  }
  bool number_float(json::number_float_t d, const json::string_t&) {
    return value(yaml::make_float(d));
  }
  bool string(json::string_t& s) { return value(yaml::make_string(std::move(s))); }
  bool binary(json::binary_t&) { return false; }  // not produced by the JSON reader
  bool start_object(std::size_t) { return open(yaml::make_map()); }
  bool key(json::string_t& k) {
    stack_.back().key = std::move(k);
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(yaml::make_array()); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) {
    error_byte_ = byte;
    error_id_ = e.id;
    // nlohmann's words up to the text it quotes: "parse error at line 1, column 6: syntax
    // error while parsing value - invalid literal"; fixed words and positions only.
    std::string why = e.what();
    if (auto p = why.find("parse error"); p != std::string::npos) why = why.substr(p);
    if (auto p = why.find("; last read:"); p != std::string::npos) why.resize(p);
    error_ = std::move(why);
    return false;
  }

  bool too_deep() const { return too_deep_; }
  // Set after a failed parse: nlohmann's exception id (101-103 syntax, 406 a number out of
  // range), the byte offset where it stopped and its value-free description.
  int error_id() const { return error_id_; }
  size_t error_byte() const { return error_byte_; }
  const std::string& error() const { return error_; }
  yaml::Node& root() { return root_; }

 private:
  struct Frame {
    yaml::Node node;
    std::string key;                                // the key whose value comes next
    std::unordered_map<std::string, size_t> index;  // key -> item, for repeated keys
  };

  bool value(yaml::Node n) {
    n.span = span_;
    if (stack_.empty()) {
      root_ = std::move(n);
      return true;
    }
    Frame& f = stack_.back();
    if (f.node.kind == yaml::Kind::kArray) {
      f.node.elements.push_back(std::move(n));
      return true;
    }
    // A repeated key: the later value wins, in the first one's place (Go's encoding/json
    // into a map, and nlohmann's ordered_json).
    auto [it, fresh] = f.index.try_emplace(f.key, f.node.items.size());
    if (!fresh) {
      f.node.items[it->second].value = std::move(n);
      return true;
    }
    yaml::MapItem item;
    item.key = yaml::make_string(std::move(f.key));
    item.key.span = span_;
    item.value = std::move(n);
    f.node.items.push_back(std::move(item));
    return true;
  }
  // Nesting is bounded as YAML's is: the resolver recurses per level.
  bool open(yaml::Node n) {
    if (stack_.size() >= static_cast<size_t>(yaml::kMaxDepth)) {
      too_deep_ = true;
      return false;
    }
    stack_.push_back({std::move(n), {}, {}});
    return true;
  }
  bool close() {
    yaml::Node n = std::move(stack_.back().node);
    stack_.pop_back();
    return value(std::move(n));
  }

  diag::Span span_;
  std::vector<Frame> stack_;
  yaml::Node root_;
  bool too_deep_ = false;
  int error_id_ = 0;
  size_t error_byte_ = 0;
  std::string error_;
};

// "line 3, column 7" of a byte offset, counted as nlohmann counts (columns in bytes, from 1).
std::string line_and_column(std::string_view text, size_t byte) {
  byte = std::min(byte, text.size());
  const std::string_view before = text.substr(0, byte);
  const size_t line = static_cast<size_t>(std::count(before.begin(), before.end(), '\n')) + 1;
  const size_t line_start = before.rfind('\n');
  const size_t column = byte - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

const char* kQuotingHint =
    "helmfile renders hook args once: in helmfile.yaml write "
    "'{{ .Values | toJson }}'; only helmfile.yaml.gotmpl, which is rendered once more before, "
    "needs it escaped as '{{`{{ .Values | toJson }}`}}'";

// The release values of --values-json, or why they cannot be used (a usage error: the hook's
// wiring is wrong, not the release's values).
diag::Result<yaml::Node> parse_values_json(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return diag::Error{
        "--values-json is empty: helmfile passed no values (is the argument "
        "'{{ .Values | toJson }}' there?)",
        {}};
  }
  ValuesBuilder values(diag::Span{"--values-json", {}, {}});
  if (!json::sax_parse(text, &values)) {
    if (values.too_deep()) {
      return diag::Error{
          "--values-json nests deeper than " + std::to_string(yaml::kMaxDepth) + " levels", {}};
    }
    // A value may hold "{{" in valid JSON; text that is not JSON and has it was not rendered.
    if (text.find("{{") != std::string::npos) {
      return diag::Error{"--values-json holds an unrendered helmfile template, not JSON; " +
                             std::string(kQuotingHint),
                         {}};
    }
    if (values.error_id() == 406) {
      // Go's encoding/json, which helmfile's toJson and tazuna use, refuses it too ("cannot
      // unmarshal number ... into Go value of type float64").
      // nlohmann stops at the number's last byte; its place is where it starts.
      size_t start = std::min(values.error_byte(), text.size());
      while (start > 0 &&
             std::string_view("0123456789+-.eE").find(text[start - 1]) != std::string_view::npos)
        --start;
      return diag::Error{"--values-json is not valid JSON for Go: the number at " +
                             line_and_column(text, start) +
                             " is out of the range of a 64-bit float",
                         {}};
    }
    return diag::Error{"--values-json is not valid JSON (" + values.error() + ")", {}};
  }
  yaml::Node& j = values.root();
  const char* found = nullptr;
  switch (j.kind) {
    case yaml::Kind::kMap:
      return std::move(j);
    case yaml::Kind::kNull:
      found = "JSON null";
      break;
    case yaml::Kind::kArray:
      found = "a JSON array";
      break;
    case yaml::Kind::kString:
      found = "a JSON string";
      break;
    case yaml::Kind::kBool:
      found = "a JSON boolean";
      break;
    default:
      found = "a JSON number";
  }
  return diag::Error{std::string("--values-json must be a JSON object of the release's values, "
                                 "found ") +
                         found,
                     {}};
}

}  // namespace

int run_hook(const HookOptions& o, Io io) {
  const std::string label = "hook " + o.event + ": ";
  if (o.values_json_given == !o.values_file.empty()) {
    return fail(io, label + "give exactly one of --values-json or --values-file");
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(o.dir, ec)) {
    return fail(io, label + "--dir " + o.dir + " is not a folder");
  }
  diag::Diagnostics diags;
  yaml::Node values;
  if (!o.values_file.empty()) {
    auto loaded = load_values(o.values_file, io.in, diags, o.show_values);
    if (!loaded.ok()) return fail(io, label + loaded.error().message);
    values = std::move(loaded).value();
    if (diags.has_errors() || values.kind != yaml::Kind::kMap) {
      io.err << "hintkit: " << label << "the values are not a mapping";
      if (!diags.empty()) {
        const diag::Diagnostic& d = diags.items()[0];
        io.err << " (";
        if (d.span.known()) {
          io.err << d.span.file.str() << ":" << d.span.begin.line << ":" << d.span.begin.column
                 << ": ";
        }
        io.err << d.message << ")";
      }
      io.err << "\n";
      return kExitUsage;
    }
  } else {
    auto parsed = parse_values_json(o.values_json);
    if (!parsed.ok()) return fail(io, label + parsed.error().message);
    values = std::move(parsed).value();
  }

  const std::string hint_path = join_file(o.dir, hintfile::kFileName);
  if (!std::filesystem::exists(hint_path, ec)) return kExitClean;
  auto hint = hintfile::load_file(hint_path, diags);
  if (!hint.ok()) return fail(io, label + hint.error().message);
  if (diags.has_errors()) {
    diags.sort_and_dedupe();
    diag::render(io.err, diag::Format::kText, diags);
    return kExitFindings;
  }
  resolver::Options options;
  options.values_label = "release values";
  options.show_values = o.show_values;
  yaml::Node resolved = resolver::resolve(&*hint, values, diags, options);
  diag::RenderOptions render;
  render.message_prefix = "";
  diag::render(io.err, diag::Format::kText, diags, render);
  if (diags.has_errors()) {
    io.err << "hintkit: " << count_of(diags.error_count(), "problem")
           << " with the values of this release (" << hint_path << ")\n";
    return kExitFindings;
  }
  if (o.show_values) write_values(io.out, resolved, "yaml");
  return kExitClean;
}

}  // namespace hintkit::plugin

// ytt's DataValuesFlags (pkg/cmd/template/datavalues_flags.go): the --data-values-file,
// --data-values-env[-yaml], --data-value[-yaml] and --data-value-file flags as data values
// documents, in ytt's order. Their texts become pseudo files of the root library (errors quote
// them); values addressed to a library (`@lib:key=value`) go to it the way documents do.
#include "ytt/cmd/cmd.h"
#include "ytt/overlay/overlay.h"
#include "ytt/workspace/workspace.h"
#include "ytt/yamltemplate/yamltemplate.h"

namespace hintkit::ytt {

namespace {

// Sets every span in a tree to `span` (values from flags all point at the flag).
void stamp(DNode& n, const diag::Span& span) {
  n.span = span;
  for (auto& e : n.entries) {
    e.span = span;
    stamp(*e.value, span);
  }
}

// [key, path] and a value -> a document {key: {path: value}}.
DDoc kv_doc(const std::vector<std::string>& parts, DPtr value, const diag::Span& span) {
  DPtr v = std::move(value);
  bool leaf = true;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    auto m = make_node(yaml::Kind::kMap, no_position_span());  // ytt's maps here have none
    DEntry e;
    e.key = string_scalar(*it);
    e.value = v;
    e.span = span;
    if (leaf) {
      // as ytt builds a flag's overlay: the leaf replaces, or is added when missing
      e.anns.push_back(Ann{"overlay/replace", {}, {{"or_add", sl::Value::from_bool(true)}}, span});
    }
    leaf = false;
    m->entries.push_back(std::move(e));
    v = m;
  }
  DDoc d;
  d.value = v;
  d.span = span;
  return d;
}

class DataValuesFlags {
 public:
  DataValuesFlags(const Options& opts, LibraryExecution& root, StdinUse& stdin_use)
      : opts_(opts), root_(root), stdin_use_(stdin_use) {}

  // How plain data values YAML (--data-values-file, YAML flag values) is read: ytt parses it
  // without templating, so a repeated key stays two items, overlaid in turn.
  yaml::LoadOptions values_yaml_options() const {
    yaml::LoadOptions o = ytt_yaml_options(opts_.strict);
    o.keep_duplicate_keys = true;
    return o;
  }

  // ytt's DataValuesFlags.AsOverlays: files, then env variables, then key=value flags, then
  // key=file flags, each one overlay (a document) in that order.
  void add_flag_sources(std::vector<ValuesSource>& sources) {
    for (const auto& arg : opts_.data_values_files) values_file_flag(arg, sources);
    for (const auto& p : opts_.data_values_env) env_flag(p, "data-values-env", sources);
    for (const auto& p : opts_.data_values_env_yaml) env_flag(p, "data-values-env-yaml", sources);
    for (const auto& kv : opts_.data_value) kv_flag(kv, "data-value", sources);
    for (const auto& kv : opts_.data_value_yaml) kv_flag(kv, "data-value-yaml", sources);
    for (const auto& kv : opts_.data_value_file) kv_file_flag(kv, sources);
  }

  // ytt's libraryRefAndRemainder: "@lib:rest" -> {"@lib", "rest"}; anything else has no ref.
  static std::pair<std::string, std::string> split_library_ref(const std::string& arg) {
    if (!arg.starts_with('@')) return {"", arg};
    const size_t colon = arg.find(':');
    if (colon == std::string::npos) return {"", arg};
    if (colon == 1) throw YttError{"Expected library ref to not be empty"};
    return {arg.substr(0, colon), arg.substr(colon + 1)};
  }

  // ytt's libraryRefAndKey: a key may not hold the library separator ':'.
  static std::pair<std::string, std::string> split_library_key(const std::string& arg) {
    auto ref_key = split_library_ref(arg);
    if (ref_key.second.find(':') != std::string::npos) {
      throw YttError{"Expected at most one library-key separator ':' in '" + ref_key.second + "'"};
    }
    return ref_key;
  }

  // A flag's data values go to the root library, or (with a library ref) are set aside: this
  // engine has no libraries, so ytt would find them unused (see `unused_library_values_`).
  // `context` starts the flag's errors (a malformed ref is reported there).
  void add_source(std::vector<ValuesSource>& sources, ValuesSource src, const std::string& lib,
                  const std::string& where, const std::string& context) {
    if (lib.empty()) {
      sources.push_back(std::move(src));
      return;
    }
    std::vector<LibraryRef> ref = with_context(context, [&] { return parse_library_ref(lib); });
    auto e = std::make_shared<Envelope>();
    e->desc = "Data Value belonging to library '" + library_ref_text(ref) + "' on line " + where;
    e->ref = std::move(ref);
    e->src = std::move(src);
    root_.add_flag_library_values(std::move(e));
  }

  // --data-values-file: plain YAML documents, each an overlay.
  void values_file_flag(const std::string& arg, std::vector<ValuesSource>& sources) {
    const std::string context = "Extracting data value from file: ";
    const auto [lib, path] = split_library_ref(arg);
    if (url_of(path)) throw Unsupported{"--data-values-file from a URL"};
    FoundFiles found;
    try {
      found = with_context(context + "Find files '" + path + "': ", [&, &path = path] {
        return find_files(path, stdin_use_, read_rules());
      });
    } catch (const StdinTaken& taken) {
      throw YttError{context + "Reading file '" + taken.name + "': " + StdinTaken::kText};
    }
    for (SourceFile& f : found.files) {
      // ytt leaves other files (docs and such) kept in a values folder's subfolders alone
      if (is_implied(found, f) && file_type(f.path) != FileType::kYaml) continue;
      if (!f.read_error.empty()) {
        throw YttError{context + "Reading file '" + f.path + "': " + f.read_error};
      }
      const std::string name = f.path;
      f.in_file_set = false;
      diag::Diagnostics diags;
      auto docs = yaml::load(f.text(), f.path, diags, values_yaml_options());
      for (const auto& d : diags.items()) {
        if (d.code == "HK002") root_.note_repeated_keys();
        if (d.severity == diag::Severity::kError && d.code != "HK002") {
          throw YttError{context + "Unmarshaling YAML data values file '" + f.path +
                         "': " + go_yaml_error(d, true)};
        }
      }
      root_.files().files.push_back(std::move(f));
      for (const auto& d : docs) {
        if (d.empty) continue;
        if (!d.annotations.empty() || has_annotations(d.root)) {
          throw YttError{context + "Checking data values file '" + path +
                         "': Expected to be plain YAML, having no annotations (hint: remove "
                         "comments starting with `#@`)"};
        }
        if (has_array_in_key(d.root)) {
          throw Unsupported{
              "a map key that holds an array (ytt prints its array items' internals)"};
        }
        DDoc dd;
        dd.value = from_yaml(d.root);
        dd.span = d.span;
        const std::string_view first_line = root_.files().files.back().lines[0];
        if (d.span.begin.line == 1 && !first_line.starts_with("---")) {
          dd.span.file = root_.pseudo(name, "").path;  // ytt shows no text for an implicit document
        }
        add_source(sources, {dd, true, true, path}, lib,
                   name + ":" + std::to_string(d.span.begin.line), context);
      }
    }
  }

  // --data-values-env[-yaml] PREFIX: every PREFIX_a__b=value variable, in the environment's
  // order, as a.b: value.
  void env_flag(const std::string& arg, const std::string& flag,
                std::vector<ValuesSource>& sources) {
    const std::string context = "Extracting data values from env under prefix '" + arg + "': ";
    const auto [lib, prefix] = with_context(context, [&] { return split_library_key(arg); });
    for (const auto& kv : opts_.environment) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) {
        throw YttError{context + "Expected env variable to be key-value pair (format: key=value)"};
      }
      const std::string name = kv.substr(0, eq);
      if (!name.starts_with(prefix + "_")) continue;
      SourceFile& pf = root_.pseudo("(" + flag + " arg) " + prefix, kv);
      diag::Span span{pf.path, {1, 1}, {1, 1}};
      const std::string raw = kv.substr(eq + 1);
      DPtr v =
          flag == "data-values-env-yaml"
              ? parse_yaml_value(
                    context + "Extracting data value from env variable '" + name + "': ", raw, span)
              : string_node(raw, span);
      add_source(sources,
                 {kv_doc(split(name.substr(prefix.size() + 1), "__"), v, span), true, false, ""},
                 lib, "(" + flag + " arg) " + prefix + ":1", context);
    }
  }

  // -v / --data-value[-yaml] key.path=value.
  void kv_flag(const std::string& kv, const std::string& flag, std::vector<ValuesSource>& sources) {
    const std::string context = "Extracting data value from KV: ";
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) throw YttError{context + "Expected format key=value"};
    const std::string raw_key = kv.substr(0, eq), raw = kv.substr(eq + 1);
    SourceFile& pf = root_.pseudo("(" + flag + " arg)", kv);
    diag::Span span{pf.path, {1, 1}, {1, 1}};
    DPtr v = flag == "data-value-yaml"
                 ? parse_yaml_value(
                       context + "Deserializing value for key '" + raw_key + "': ", raw, span)
                 : string_node(raw, span);
    const auto [lib, key] = with_context(context, [&] { return split_library_key(raw_key); });
    add_source(sources, {kv_doc(split(key, "."), v, span), true, false, ""}, lib,
               "(" + flag + " arg):1", context);
  }

  // --data-value-file key.path=file: the file's text as a string.
  void kv_file_flag(const std::string& kv, std::vector<ValuesSource>& sources) {
    const std::string context = "Extracting data value from file: ";
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) throw YttError{context + "Expected format key=/file/path"};
    const std::string raw_key = kv.substr(0, eq), path = kv.substr(eq + 1);
    if (url_of(path)) throw Unsupported{"--data-value-file from a URL"};
    FoundFiles found;
    try {
      found = with_context(context + "Finding file '" + path + "': ",
                           [&] { return find_files(path, stdin_use_, read_rules()); });
    } catch (const StdinTaken&) {
      throw YttError{context + "Reading file '" + path + "'"};  // ytt gives no reason here
    }
    if (found.files.empty()) {
      throw Unsupported{"--data-value-file naming an empty directory (ytt panics)"};
    }
    if (found.files.size() > 1) {
      throw YttError{context + "Expected '" + path + "' to be a file, but is a directory"};
    }
    if (!found.files[0].read_error.empty()) {
      throw YttError{context + "Reading file '" + path + "'"};  // ytt gives no reason here
    }
    const std::string text(found.files[0].text());
    const auto [lib, key] = with_context(context, [&] { return split_library_key(raw_key); });
    const std::string label = "(data-value-file arg) " + key + "=" + path;
    SourceFile& pf = root_.pseudo(label, text);
    diag::Span span{pf.path, {1, 1}, {1, 1}};
    add_source(sources, {kv_doc(split(key, "."), string_node(text, span), span), true, false, ""},
               lib, label + ":1", context);
  }

  static std::vector<std::string> split(const std::string& s, std::string_view sep) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
      const size_t at = s.find(sep, start);
      parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
      if (at == std::string::npos) return parts;
      start = at + sep.size();
    }
  }

  static bool has_annotations(const yaml::Node& n) {
    for (const auto& it : n.items)
      if (!it.annotations.empty() || has_annotations(it.value)) return true;
    for (const auto& el : n.elements)
      if (!el.annotations.empty() || has_annotations(el)) return true;
    return false;
  }

  static DPtr string_node(const std::string& s, const diag::Span& span) {
    auto n = make_node(yaml::Kind::kString, span);
    n->scalar.text = s;
    return n;
  }

  // `context`: the lines of ytt's error before "Deserializing YAML value: ...". A scalar is
  // known by the flag's place (`span`); the items of a map or array by their lines in the
  // value's own text, which ytt names "" (its root by line 1, with no text shown).
  DPtr parse_yaml_value(const std::string& context, const std::string& text,
                        const diag::Span& span) {
    const std::string value_file = root_.pseudo("", text, /*whole=*/true).path;
    diag::Diagnostics diags;
    auto docs = yaml::load(text, value_file, diags, values_yaml_options());
    for (const auto& d : diags.items()) {
      if (d.code == "HK002") root_.note_repeated_keys();
      if (d.severity == diag::Severity::kError && d.code != "HK002") {
        throw YttError{context + "Deserializing YAML value: " + go_yaml_error(d, true)};
      }
    }
    if (!docs.empty() && has_array_in_key(docs[0].root)) {
      throw Unsupported{"a map key that holds an array (ytt prints its array items' internals)"};
    }
    DPtr v = docs.empty() ? make_node(yaml::Kind::kNull) : from_yaml(docs[0].root);
    if (v->is_scalar()) {
      stamp(*v, span);
    } else {
      v->span = diag::Span{root_.pseudo("", "").path, {1, 1}, {1, 1}};
    }
    return v;
  }

 private:
  ReadRules read_rules() const {
    return {&opts_.unsaved_texts, opts_.regular_files_only, opts_.allow_all_symlinks,
            &opts_.allowed_symlink_destinations};
  }

  const Options& opts_;
  LibraryExecution& root_;
  StdinUse& stdin_use_;
};

}  // namespace

std::vector<ValuesSource> data_values_flag_sources(const Options& opts, LibraryExecution& root,
                                                   StdinUse& stdin_use) {
  std::vector<ValuesSource> sources;
  DataValuesFlags(opts, root, stdin_use).add_flag_sources(sources);
  return sources;
}

}  // namespace hintkit::ytt

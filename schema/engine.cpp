// The pipeline of `hintkit values`: read inputs, template them, build the schema, merge data
// values in ytt's order, validate, print.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "schema/errors.h"
#include "schema/file_set.h"
#include "schema/phases.h"
#include "schema/preload.h"
#include "schema/schema.h"

namespace hintkit::schema {

namespace {

// YAML templates: the files ytt reads data values and schemas from and renders.
bool is_yaml(std::string_view p) {
  return file_type(p) == FileType::kYaml && is_template_file(p);
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
  return out;
}

struct ValuesSource {
  DDoc doc;
  bool missing_ok = false;  // flags and --data-values-file may add keys
  bool plain = false;       // --data-values-file: arrays and other kinds replace
  std::string order_name;   // for "in following order"
};

std::string type_problems_text(Files& files, const std::vector<TypeProblem>& problems) {
  for (const auto& p : problems) {
    files.gutter_digits = std::max<int>(files.gutter_digits,
                                        static_cast<int>(std::to_string(p.at.begin.line).size()));
  }
  std::string out =
      "\nOne or more data values were invalid\n====================================\n\n";
  for (const auto& p : problems) {
    if (p.unknown_key) out += "Given data value is not declared in schema\n";
    out += excerpt(files, p.at.file, p.at.file, {p.at.begin.line > 0 ? p.at.begin.line : 1});
    std::string ind(static_cast<size_t>(files.gutter_digits) + 3, ' ');
    out += "\n" + ind + "= found: " + p.found + "\n";
    out += ind + "= expected: " + p.expected + " (" + (p.unknown_key ? "from " : "by ") +
           pos_text(p.by) + ")\n";
    if (!p.hint.empty()) out += ind + "= hint: " + p.hint + "\n";
    out += "\n";
  }
  out += "\n";
  return out;
}

// Sets every span in a tree to `span` (values from flags all point at the flag).
void stamp(DNode& n, const diag::Span& span) {
  n.span = span;
  for (auto& e : n.entries) {
    e.span = span;
    stamp(*e.value, span);
  }
}

// key.path=value -> a document {key: {path: value}}.
DDoc kv_doc(const std::string& key, DPtr value, const diag::Span& span) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = key.find('.', start);
    parts.push_back(key.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  DPtr v = std::move(value);
  bool leaf = true;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    auto m = make_node(yaml::Kind::kMap, span);
    DEntry e;
    e.key = string_scalar(*it);
    e.value = v;
    e.span = span;
    if (leaf) {
      // as ytt builds a flag's overlay: the leaf replaces, or is added when missing
      e.anns.push_back(Ann{"overlay/replace", {}, {{"or_add", sl::Value::from_bool(true)}}, span});
      if (!v->is_scalar()) e.span = v->span;  // ytt has no position for these
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

class Engine {
 public:
  explicit Engine(const Options& o) : opts_(o), thread_(make_thread_options()) {}

  sl::ThreadOptions make_thread_options() {
    sl::ThreadOptions to;
    to.load = [this](sl::Thread& t, std::string_view module) -> sl::Result<sl::Module> {
      return load_module(files_, t, module);
    };
    to.print = [this](std::string_view text) { err_ += std::string(text) + "\n"; };
    return to;
  }

  Outcome run() {
    Outcome out;
    try {
      out.out = pipeline();
      out.err = err_;
    } catch (const Unsupported& u) {
      out.exit_code = kExitUnsupported;
      out.err = err_ + unsupported_text(u.feature);
    } catch (YttError& e) {
      if (!files_.unsupported.empty()) {  // the failure came from a refused feature
        out.exit_code = kExitUnsupported;
        out.err = err_ + unsupported_text(files_.unsupported);
        preloader_.reset();
        return out;
      }
      // ytt parses every input file before templating any: a syntax error anywhere wins over
      // a problem found while templating (flags and missing files are checked before both).
      if (templating_started_) {
        if (auto syntax = first_yaml_error()) e.text = *syntax;
      }
      out.exit_code = e.exit_code;
      e.text = multi_line_error(e.text);
      out.err = err_ + "Error: " + e.text + (e.text.empty() || e.text.back() != '\n' ? "\n" : "");
    }
    preloader_.reset();  // joins the loading thread (also after an early error)
    return out;
  }

 private:
  // The -f inputs as ytt's file set (file_set.cpp). Files of private libraries (`_ytt_lib`)
  // are left out: ytt uses them only through library modules, which hintkit refuses.
  void read_inputs() {
    for (auto& f : read_file_set(opts_.files)) {
      if (is_in_private_library(f.path)) continue;
      files_.files.push_back(std::move(f));
    }
  }

  // How Go words a file that cannot be read (ytt stats files before reading them).
  static std::string go_file_problem(const std::string& path, const std::string& fallback) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return "lstat " + path + ": no such file or directory";
    return fallback;
  }

  void add_file(const std::string& path, const std::string& name) {
    auto text = yaml::read_file(path);
    if (!text.ok()) {
      throw YttError{"Checking file '" + path +
                     "': " + go_file_problem(path, text.error().message)};
    }
    SourceFile f;
    f.path = name.empty() ? path : name;
    f.lines = SourceLines(std::move(*text));
    files_.files.push_back(std::move(f));
  }

  const std::vector<DDoc>& docs_of(size_t i, const std::string& stage,
                                   const std::vector<std::string>& order) {
    auto it = evaluated_.find(i);
    if (it != evaluated_.end()) return it->second;
    const SourceFile& f = files_.files[i];
    try {
      return evaluated_[i] =
                 eval_template(files_, f, thread_, preloader_ ? preloader_->take(i) : std::nullopt);
    } catch (const TemplateError& e) {
      if (e.compile) {
        throw YttError{multi_line_error(stage + " (in following order: " + join(order) +
                                        "): Templating file '" + f.path + "': " + e.text)};
      }
      throw YttError{stage + " (in following order: " + join(order) + "):\n  Templating file '" +
                     f.path + "': \n" + e.text};
    }
  }

  std::string pipeline() {
    if (!opts_.output.empty() && opts_.output != "yaml" && opts_.output != "json") {
      throw YttError{"Unknown output type '" + opts_.output + "'"};
    }
    if (opts_.schema_inspect && !opts_.output_openapi) {
      throw YttError{
          "Data values schema export only supported in OpenAPI v3 format; specify "
          "format with --output=openapi-v3 flag"};
    }
    if (!opts_.schema_inspect && opts_.output_openapi) {
      throw YttError{
          "Output type currently only supported for data values schema (i.e. include "
          "--data-values-schema-inspect)"};
    }
    read_inputs();
    input_count_ = files_.files.size();
    // Flags are read before any file is templated, as ytt does, so their errors come first.
    std::vector<ValuesSource> flag_sources;
    add_flag_sources(flag_sources);
    templating_started_ = true;
    // Which files hold schema / data values documents (decided from their text).
    std::vector<size_t> schema_files, value_files;
    for (size_t i = 0; i < input_count_; ++i) {
      const auto& f = files_.files[i];
      if (!is_yaml(f.path)) continue;
      if (f.text().find("data/values-schema") != std::string::npos) schema_files.push_back(i);
      if (f.text().find("data/values") != std::string::npos) value_files.push_back(i);
    }
    start_preloading(schema_files, value_files);
    // ---- schema
    std::vector<std::string> schema_order;
    for (size_t i : schema_files) schema_order.push_back(files_.files[i].path);
    const std::string schema_stage = "Overlaying data values schema";
    std::vector<DDoc> schema_docs;
    for (size_t i : schema_files) {
      for (const auto& d : docs_of(i, schema_stage, schema_order)) {
        check_placement(d, "data/values-schema");
        if (!d.ann("data/values-schema") && !doc_empty(d)) {
          const std::string& p = files_.files[i].path;
          throw YttError{schema_stage + " (in following order: " + join(schema_order) +
                         "):\n  Templating file '" + p + "':\n    Expected schema file '" + p +
                         "' to only have schema documents"};
        }
        if (d.ann("data/values-schema")) schema_docs.push_back(d);
      }
    }
    TypePtr& type = type_;
    DPtr& values = values_;
    if (!schema_docs.empty()) {
      try {
        DDoc merged = schema_docs[0];
        if (schema_docs.size() > 1) {
          for (size_t k = 1; k < schema_docs.size(); ++k) {
            (void)infer_document(schema_docs[k], files_);  // each must be valid on its own
            overlay_document(merged.value, schema_docs[k], thread_, files_, false, false, true);
          }
        }
        type = infer_document(merged, files_);
      } catch (YttError& e) {
        e.text = schema_stage + " (in following order: " + join(schema_order) + "):" + e.text;
        throw;
      }
      values = default_of(*type);
      // The type holds all the schema documents still say: let their trees go before the
      // data values are loaded (a schema file's other documents stay for the later phases).
      schema_docs.clear();
      for (size_t i : schema_files) {
        auto& docs = evaluated_[i];
        std::erase_if(docs, [](const DDoc& d) {
          return d.ann("data/values-schema") && !d.ann("data/values");
        });
      }
    }
    // ---- data values
    std::vector<ValuesSource>& sources = sources_;
    std::vector<std::string> order;
    for (size_t i : value_files) {
      const auto& docs = docs_of(i, "Overlaying data values", {files_.files[i].path});
      bool any_values = false;
      for (const auto& d : docs) any_values = any_values || d.ann("data/values");
      if (!any_values) continue;
      for (const auto& d : docs) {
        if (!d.ann("data/values") && !d.ann("data/values-schema") && !doc_empty(d)) {
          const std::string& p = files_.files[i].path;
          throw YttError{"Overlaying data values (in following order: " + p +
                         "):\n  Templating file '" + p + "':\n    Expected data values file '" + p +
                         "' to only have data values documents"};
        }
      }
      for (const auto& d : docs) {
        check_placement(d, "data/values");
        if (d.ann("data/values")) {
          sources.push_back({d, false, false, files_.files[i].path});
          if (std::find(order.begin(), order.end(), files_.files[i].path) == order.end()) {
            order.push_back(files_.files[i].path);
          }
        }
      }
    }
    if (!flag_sources.empty()) order.push_back("additional data values");
    for (auto& src : flag_sources) sources.push_back(std::move(src));
    const std::string dv_stage =
        "Overlaying data values (in following order: " + join(order) + "):";
    for (auto& src : sources) {
      try {
        overlay_document(values, src.doc, thread_, files_, src.missing_ok, src.plain);
      } catch (YttError& e) {
        e.text = dv_stage + e.text;
        throw;
      }
      if (type) {
        std::vector<TypeProblem> problems;
        check_and_fill(values, *type, problems);
        if (!problems.empty())
          throw YttError{dv_stage + " " + type_problems_text(files_, problems)};
      }
    }
    if (!values) values = make_node(yaml::Kind::kMap);
    // ---- validations
    if (type && !opts_.disable_validation) {
      std::string failures;
      try {
        failures = validate_values(values, *type, thread_, files_);
      } catch (YttError& e) {
        e.text = "Validating final data values:\n" + e.text;
        throw;
      }
      if (!failures.empty()) throw YttError{"Validating final data values:\n" + failures};
    }
    // ---- output
    // ytt parses every input file, even those the inspect modes never template.
    if (opts_.schema_inspect || opts_.inspect) {
      if (auto syntax = first_yaml_error()) throw YttError{*syntax};
    }
    if (opts_.schema_inspect) return openapi_output(type, opts_.output == "json");
    if (opts_.inspect) {
      if (values->is_null()) return {};
      if (opts_.output == "json")
        return has_non_finite(*values) ? std::string() : json_output(*values);
      return emit_yaml(*values);
    }
    files_.data_values = to_struct_value(values);
    return render_templates();
  }

  // "Unmarshaling YAML template 'x.yaml': yaml: line 3: ..." for the first input file (in -f
  // order) that is not valid YAML; files already templated are known to be valid.
  std::optional<std::string> first_yaml_error() {
    for (size_t i = 0; i < input_count_; ++i) {
      const SourceFile& f = files_.files[i];
      if (!is_yaml(f.path) || evaluated_.count(i)) continue;
      diag::Diagnostics diags;
      (void)yaml::load(f.text(), f.path, diags);
      for (const auto& d : diags.items()) {
        // Duplicate keys are not syntax errors to ytt (templating reports them, if at all).
        if (d.severity == diag::Severity::kError && d.code != "HK002") {
          return "Unmarshaling YAML template '" + f.path + "': " + go_yaml_error(d, f.text(), true);
        }
      }
    }
    return std::nullopt;
  }

  // Schema files, then data values files: the order `docs_of` will ask for them.
  void start_preloading(const std::vector<size_t>& schema_files,
                        const std::vector<size_t>& value_files) {
    std::vector<YamlPreloader::Input> order;
    auto add = [&](size_t i) {
      for (const auto& in : order)
        if (in.file_index == i) return;
      order.push_back({i, files_.files[i].path, files_.files[i].text()});
    };
    for (size_t i : schema_files) add(i);
    for (size_t i : value_files) add(i);
    preloader_ = std::make_unique<YamlPreloader>(std::move(order), opts_.after_loading_thread);
  }

  void check_placement(const DDoc& d, const std::string& name) {
    if (!d.value) return;
    for (const auto& e : d.value->entries) {
      for (const auto& a : e.anns) {
        if (a.name == "data/values-schema" || a.name == "data/values") {
          std::string where = d.value->is_map() ? "map item" : "array item";
          throw YttError{"Found @" + a.name + " on " + where + " (" + pos_text(e.span) +
                         "); only documents (---) can be annotated with @" + a.name};
        }
      }
    }
    (void)name;
  }

  // ytt's empty documents (null, `{}`, `[]`) are left out of the output.
  static bool empty_doc(const DDoc& d) { return doc_empty(d); }

  // Template evaluation, then ytt's overlay post-processing: documents annotated
  // `@overlay/match` are overlays, applied in file order to the other (non-empty) documents.
  std::string render_templates() {
    std::vector<std::vector<DDoc>>& sets = output_;
    std::vector<DDoc> overlays;
    std::vector<std::string> overlay_files;
    bool text_output = false;  // ytt renders text templates to files only, and says so
    for (size_t i = 0; i < input_count_; ++i) {
      const auto& f = files_.files[i];
      if (file_type(f.path) == FileType::kText && is_template_file(f.path)) {
        // Text without `(@` code evaluates to itself; code in text templates is not supported.
        if (f.text().find("(@") != std::string::npos) {
          throw Unsupported{"text templates with code (" + f.path + ")"};
        }
        text_output = true;
        continue;
      }
      if (!is_yaml(f.path)) continue;
      bool needs_fresh = f.text().find("data.values") != std::string::npos;
      std::vector<DDoc> docs;
      if (!needs_fresh && evaluated_.count(i)) {
        docs = std::move(evaluated_[i]);  // last use: overlays then own the trees
      } else {
        try {
          docs = eval_template(files_, f, thread_);
        } catch (const TemplateError& e) {
          if (e.compile) throw YttError{multi_line_error(e.text)};
          throw YttError{"\n" + e.text};  // the text already starts with "- "
        }
      }
      std::vector<DDoc> kept;
      bool has_overlays = false;
      for (auto& d : docs) {
        if (d.ann("data/values-schema") || d.ann("data/values")) continue;
        if (d.ann("overlay/match")) {
          overlays.push_back(std::move(d));
          has_overlays = true;
        } else if (!empty_doc(d)) {
          kept.push_back(std::move(d));
        }
      }
      if (has_overlays) overlay_files.push_back(f.path);
      if (!kept.empty()) sets.push_back(std::move(kept));
    }
    if (!overlays.empty()) {
      try {
        overlay_output(sets, overlays, overlay_files, thread_, files_);
      } catch (const OverlayError& e) {
        throw YttError{multi_line_error(e.message), e.unsupported ? 2 : 1};
      }
    }
    std::string out;
    bool first = true;
    for (const auto& set : sets) {
      for (const auto& d : set) {
        if (opts_.output == "json") {
          // ytt: one compact JSON text per document, back to back; null documents and those
          // JSON cannot spell (inf, nan) print nothing.
          if (!doc_empty(d) && !has_non_finite(*d.value)) {
            out += json_output(*d.value);
          }
          continue;
        }
        if (!first) out += "---\n";
        first = false;
        out += d.value ? emit_yaml(*d.value) : "null\n";
      }
    }
    if (text_output) {
      err_ +=
          "\nWarning: Found Non-YAML templates in input. Non-YAML templates are not rendered to "
          "standard output.\nIf you want to include those results, use the --output-files or "
          "--dangerous-emptied-output-directory flag.\n";
    }
    return out;
  }

  // ytt's Document.IsEmpty: null, or a map or array without items.
  static bool doc_empty(const DDoc& d) {
    return !d.value || d.value->is_null() ||
           (!d.computed && !d.value->is_scalar() && d.value->entries.empty());
  }

  static bool has_non_finite(const DNode& v) {
    if (v.kind == yaml::Kind::kFloat && !std::isfinite(v.scalar.float_value)) return true;
    for (const auto& e : v.entries)
      if (has_non_finite(*e.value)) return true;
    return false;
  }

  std::string json_output(const DNode& v) { return yaml::emit_json(sorted_copy(v)); }

  static yaml::Node sorted_copy(const DNode& v) {
    yaml::Node n = to_yaml(v);
    sort_keys(n);
    return n;
  }
  static void sort_keys(yaml::Node& n) {
    if (n.kind == yaml::Kind::kMap) {
      std::stable_sort(n.items.begin(), n.items.end(),
                       [](const yaml::MapItem& a, const yaml::MapItem& b) {
                         return key_text(scalar_of(a.key)) < key_text(scalar_of(b.key));
                       });
      for (auto& it : n.items) sort_keys(it.value);
    } else if (n.kind == yaml::Kind::kArray) {
      for (auto& e : n.elements) sort_keys(e);
    }
  }

  std::string openapi_output(const TypePtr& type, bool json) { return openapi_text(type, json); }

  SourceFile& pseudo(const std::string& label, const std::string& line) {
    SourceFile f;
    f.path = "\x01" + std::to_string(files_.files.size());
    f.label = label;
    f.lines = SourceLines::one(line);
    files_.files.push_back(std::move(f));
    return files_.files.back();
  }

  void add_flag_sources(std::vector<ValuesSource>& sources) {
    // --data-values-file
    for (const auto& path : opts_.data_values_files) {
      auto text = yaml::read_file(path);
      if (!text.ok()) {
        throw YttError{"Extracting data value from file:\n  Checking file '" + path +
                       "': " + go_file_problem(path, text.error().message)};
      }
      SourceFile f;
      f.path = std::filesystem::path(path).filename().string();  // as ytt names it
      f.lines = SourceLines(std::move(*text));
      diag::Diagnostics diags;
      auto docs = yaml::load(f.text(), f.path, diags);
      for (const auto& d : diags.items()) {
        if (d.severity == diag::Severity::kError && d.code != "HK002") {  // later key wins
          throw YttError{
              "Extracting data value from file:\n  Unmarshaling YAML data values file '" + f.path +
              "': " + go_yaml_error(d, f.text(), true)};
        }
      }
      files_.files.push_back(std::move(f));
      for (const auto& d : docs) {
        bool annotated = !d.annotations.empty() || has_annotations(d.root);
        if (annotated) {
          throw YttError{"Extracting data value from file:\n  Checking data values file '" + path +
                         "':\n    Expected to be plain YAML, having no annotations (hint: remove "
                         "comments starting with `#@`)"};
        }
        if (d.empty) continue;
        DDoc dd;
        dd.value = from_yaml(d.root);
        dd.span = d.span;
        sources.push_back({dd, true, true, path});
      }
    }
    // --data-values-env / --data-values-env-yaml
    auto env_flag = [&](const std::string& prefix, bool as_yaml) {
      std::vector<std::string> vars;
      for (const auto& kv : opts_.environment) {
        if (kv.rfind(prefix + "_", 0) == 0) vars.push_back(kv);
      }
      std::sort(vars.begin(), vars.end());
      for (const auto& kv : vars) {
        size_t eq = kv.find('=');
        std::string name = kv.substr(prefix.size() + 1, eq - prefix.size() - 1);
        std::string key;
        for (size_t i = 0; i < name.size(); ++i) {
          if (name.compare(i, 2, "__") == 0) {
            key += '.';
            ++i;
          } else {
            key += name[i];
          }
        }
        SourceFile& pf = pseudo("(data-values-env arg) " + prefix, kv);
        diag::Span span{pf.path, {1, 1}, {1, 1}};
        DPtr v = as_yaml
                     ? parse_yaml_value("Extracting data values from env under prefix '" + prefix +
                                            "':\n  Extracting data value from env "
                                            "variable '" +
                                            kv.substr(0, eq) + "':\n    ",
                                        kv.substr(eq + 1), span)
                     : string_node(kv.substr(eq + 1), span);
        sources.push_back({kv_doc(key, v, span), true, false, ""});
      }
    };
    for (const auto& p : opts_.data_values_env) env_flag(p, false);
    for (const auto& p : opts_.data_values_env_yaml) env_flag(p, true);
    for (const auto& kv : opts_.data_value) {
      auto [key, val] = split_kv(kv);
      SourceFile& pf = pseudo("(data-value arg)", kv);
      diag::Span span{pf.path, {1, 1}, {1, 1}};
      sources.push_back({kv_doc(key, string_node(val, span), span), true, false, ""});
    }
    for (const auto& kv : opts_.data_value_yaml) {
      auto [key, val] = split_kv(kv);
      SourceFile& pf = pseudo("(data-value-yaml arg)", kv);
      diag::Span span{pf.path, {1, 1}, {1, 1}};
      DPtr v = parse_yaml_value(
          "Extracting data value from KV:\n  Deserializing value for key '" + key + "':\n    ", val,
          span);
      sources.push_back({kv_doc(key, v, span), true, false, ""});
    }
    for (const auto& kv : opts_.data_value_file) {
      auto [key, path] = split_kv(kv);
      auto text = yaml::read_file(path);
      if (!text.ok()) {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) {
          throw YttError{"Extracting data value from file:\n  Expected '" + path +
                         "' to be a file, but is a directory"};
        }
        throw YttError{"Extracting data value from file:\n  Finding file '" + path +
                       "':\n    Checking file '" + path +
                       "': " + go_file_problem(path, text.error().message)};
      }
      SourceFile& pf = pseudo("(data-value-file arg) " + kv, *text);
      diag::Span span{pf.path, {1, 1}, {1, 1}};
      sources.push_back({kv_doc(key, string_node(*text, span), span), true, false, ""});
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

  // `context`: the lines of ytt's error before "Deserializing YAML value: ...".
  DPtr parse_yaml_value(const std::string& context, const std::string& text,
                        const diag::Span& span) {
    diag::Diagnostics diags;
    auto docs = yaml::load(text, "", diags);
    for (const auto& d : diags.items()) {
      if (d.severity == diag::Severity::kError && d.code != "HK002") {  // later key wins
        throw YttError{context + "Deserializing YAML value: " + go_yaml_error(d, text, true)};
      }
    }
    DPtr v = docs.empty() ? make_node(yaml::Kind::kNull) : from_yaml(docs[0].root);
    diag::Span s = span;
    if (!v->is_scalar()) s = diag::Span{};  // ytt loses the position of collections here
    stamp(*v, s);
    return v;
  }

  static std::pair<std::string, std::string> split_kv(const std::string& kv) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos) {
      throw YttError{"Extracting data value from KV:\n  Expected format key=value"};
    }
    std::string key = kv.substr(0, eq);
    size_t colons = std::count(key.begin(), key.end(), ':');
    if (colons > 1) {
      throw YttError{
          "Extracting data value from KV:\n  Expected at most one library-key "
          "separator ':' in '" +
          key + "'"};
    }
    return {key, kv.substr(eq + 1)};
  }

  const Options& opts_;
  Files files_;
  sl::Thread thread_;
  std::string err_;
  std::map<size_t, std::vector<DDoc>> evaluated_;
  // The pipeline's trees live here, not on the stack, so that `run` can hand them to the
  // caller (Options::free_at_end) instead of freeing them.
  TypePtr type_;
  DPtr values_;
  std::vector<ValuesSource> sources_;
  std::vector<std::vector<DDoc>> output_;  // the output documents, one set per template file
  std::unique_ptr<YamlPreloader> preloader_;
  size_t input_count_ = 0;           // files_.files beyond this come from flags
  bool templating_started_ = false;  // flags are read; input files are being templated
};

}  // namespace

Outcome run(const Options& options) {
  auto engine = std::make_shared<Engine>(options);
  Outcome out = engine->run();
  if (!options.free_at_end) out.retained = std::move(engine);
  return out;
}

}  // namespace hintkit::schema

// The pipeline of `hintkit values`: read inputs, template them, build the schema, merge data
// values in ytt's order, validate, print.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "diag/stack.h"
#include "ytt/cmd/cmd.h"
#include "ytt/files/files.h"
#include "ytt/overlay/overlay.h"
#include "ytt/schema/schema.h"
#include "ytt/template/template.h"
#include "ytt/validations/validations.h"
#include "ytt/workspace/workspace.h"
#include "ytt/yttlibrary/yttlibrary.h"

namespace hintkit::schema {

namespace {

// Files after the first holding less YAML than this are parsed on the main thread: a thread
// costs more to start and end than parsing that much (about 0.3 ms).
constexpr size_t kPreloadMinBytes = size_t{16} << 10;

// YAML templates: the files ytt reads data values and schemas from and renders.
// ytt's filesByAnnotation looks for schemas and data values in YAML templates only.
bool is_yaml(const SourceFile& f) { return file_type(f) == FileType::kYaml && is_template_file(f); }

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
  bool in_memory = false;   // library.with_data_values: ytt quotes its nodes from memory
};

// A data values or schema document addressed to a library (ytt's datavalues.Envelope and
// SchemaEnvelope): handed down library by library until the one it names takes it.
struct Envelope {
  ValuesSource src;
  std::vector<LibraryRef> ref;  // the libraries still to go through, outermost first
  std::string desc;             // how ytt names it when no library took it
  bool after_library_module = false;
  bool used = false;
};
using EnvelopePtr = std::shared_ptr<Envelope>;

// ytt's LibraryRef.Matches: a step names a library by path, by alias, or by both.
bool ref_matches(const LibraryRef& step, const LibraryRef& lib) {
  if (step.alias.empty()) return step.path == lib.path;
  if (step.path.empty()) return step.alias == lib.alias;
  return step.alias == lib.alias && step.path == lib.path;
}

// ytt's UsedInLibrary: the copy of `e` that library `lib` receives (its first step taken),
// marking `e` used; null when `e` is meant for another library.
EnvelopePtr used_in_library(Envelope& e, const LibraryRef& lib) {
  if (!e.ref.empty() && !ref_matches(e.ref.front(), lib)) return nullptr;
  e.used = true;
  auto copy = std::make_shared<Envelope>(e);
  copy->used = false;
  if (copy->src.doc.value) copy->src.doc.value = deep_copy(*copy->src.doc.value);
  if (!copy->ref.empty()) copy->ref.erase(copy->ref.begin());
  return copy;
}

// Sets every span in a tree to `span` (values from flags all point at the flag).
void stamp(DNode& n, const diag::Span& span) {
  n.span = span;
  for (auto& e : n.entries) {
    e.span = span;
    stamp(*e.value, span);
  }
}

// Go's %v of a key and %#v of a value that ytt holds as Go data; nullopt for what Go prints
// as a pointer or type ytt's error would quote (a map or array value, an uint64, a
// rune whose printability go_quote does not know).
std::optional<std::string> go_text(const DNode& n, bool sharp) {
  switch (n.kind) {
    case yaml::Kind::kNull:
      return "<nil>";
    case yaml::Kind::kBool:
      return n.scalar.bool_value ? "true" : "false";
    case yaml::Kind::kInt:
      if (n.scalar.is_unsigned && sharp) return std::nullopt;  // %#v of an uint64: 0x...
      return n.scalar.is_unsigned ? std::to_string(static_cast<uint64_t>(n.scalar.int_value))
                                  : std::to_string(n.scalar.int_value);
    case yaml::Kind::kFloat:
      return go_float(n.scalar.float_value);
    case yaml::Kind::kString:
      return sharp ? go_quote(n.scalar.text) : std::optional<std::string>(n.scalar.text);
    default:
      return std::nullopt;
  }
}

// ytt's NewASTFromInterfaceWithNoPosition, for values given to library.with_data_values: each
// item made from Starlark data (not a fragment's, which keeps its file place) gets an unknown
// position that remembers `key: value` or `- value`, which type errors quote.
void remember_memory_lines(DNode& n) {
  if (!n.from_code) return;
  for (auto& e : n.entries) {
    std::optional<std::string> line;
    if (n.is_map()) {
      DNode key;
      key.kind = e.key.kind;
      key.scalar = e.key;
      auto k = e.key_node ? std::nullopt : go_text(key, false);
      auto v = go_text(*e.value, true);
      if (k && v) line = *k + ": " + *v;
    } else if (auto v = go_text(*e.value, true)) {
      line = "- " + *v;
    }
    e.span = line ? memory_span(std::move(*line)) : unprintable_memory_span();
    remember_memory_lines(*e.value);
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

const Options kLibraryOptions;  // a library has no flags of its own

class Engine {
 public:
  explicit Engine(const Options& o) : opts_(o), thread_(make_thread_options(o)) {
    files_.library_module = [this](const std::string& folder) { return library_module(folder); };
  }

  // A library execution (ytt's LibraryExecution) over the files of folder `dir`, with the
  // documents its caller addressed to it (`values`, `schemas`: taken here, or passed on).
  Engine(Engine& parent, std::string dir, std::vector<EnvelopePtr> values,
         std::vector<EnvelopePtr> schemas, bool skip_validation)
      : opts_(kLibraryOptions),
        thread_(make_thread_options(parent.root_->opts_)),
        root_(parent.root_) {
    files_.library_module = [this](const std::string& folder) { return library_module(folder); };
    // The library's own files (its folder's, its private libraries' included): nothing
    // outside its folder can be loaded or read from it. Copying the caller's whole file set
    // made evaluating N libraries cost N times the file set (N^2 time and memory).
    for (size_t i : files_below(parent.files_, dir)) files_.files.push_back(parent.files_.files[i]);
    files_.caller = &parent.files_;  // flag texts and the caller's files: errors quote them
    pseudo_base_ = parent.pseudo_base_ + parent.files_.files.size();
    files_.library_root = std::move(dir);
    files_.templates_evaluated = parent.files_.templates_evaluated;
    input_count_ = files_.files.size();
    for (auto& e : values) (e->ref.empty() ? parent_values_ : passed_values_).push_back(e);
    for (auto& e : schemas) (e->ref.empty() ? parent_schemas_ : passed_schemas_).push_back(e);
    skip_validation_ = skip_validation;
  }

  // `budgets`: the run's options (a library's engine takes its root's).
  sl::ThreadOptions make_thread_options(const Options& budgets) {
    sl::ThreadOptions to;
    if (budgets.max_starlark_steps > 0) to.limits.max_steps = budgets.max_starlark_steps;
    if (budgets.max_starlark_call_depth > 0)
      to.limits.max_call_depth = budgets.max_starlark_call_depth;
    to.load = [this](sl::Thread& t, std::string_view module) -> sl::Result<sl::Module> {
      return load_module(files_, t, module);
    };
    to.print = [this](std::string_view text) { root_->err_ += std::string(text) + "\n"; };
    files_.warn = [this](const std::string& text) { root_->err_ += text; };
    return to;
  }

  Outcome run() {
    Outcome out;
    try {
      std::string printed = pipeline();
      out.out = writes_files() ? write_output_files() : std::move(printed);
      out.err = err_;
    } catch (const Unsupported& u) {
      out.exit_code = kExitUnsupported;
      out.out = printed_files_;
      out.err = err_ + unsupported_text(u.feature);
    } catch (YttError& e) {
      if (!files_.unsupported.empty()) {  // the failure came from a refused feature
        out.exit_code = kExitUnsupported;
        out.err = err_ + unsupported_text(files_.unsupported);
        preloader_.reset();
        return out;
      }
      out.exit_code = e.exit_code;
      out.out = printed_files_;
      out.problems = std::move(e.problems);
      e.text = multi_line_error(e.text);
      out.err = err_ + "Error: " + e.text + (e.text.empty() || e.text.back() != '\n' ? "\n" : "");
    }
    preloader_.reset();  // joins the loading thread (also after an early error)
    return out;
  }

 private:
  bool writes_files() const {
    return !opts_.output_files.empty() || !opts_.output_directory.empty();
  }

  // ytt's OutputDirectory (output_dir.cpp). The "creating:" lines printed before a failure
  // stay printed, as ytt's UI prints each at once.
  std::string write_output_files() {
    const bool emptied = !opts_.output_directory.empty();
    write_output_directory(emptied ? opts_.output_directory : opts_.output_files, output_files_,
                           emptied, printed_files_);
    return printed_files_;
  }

  ReadRules read_rules() const {
    return {&opts_.unsaved_texts, opts_.regular_files_only, opts_.allow_all_symlinks,
            &opts_.allowed_symlink_destinations};
  }

  // The -f inputs as ytt's file set (file_set.cpp). Files of private libraries (`_ytt_lib`)
  // stay in it (load() and data.list meet them as private) but are no templates of this
  // library (`own`).
  void read_inputs() {
    files_.ignore_unknown_comments = opts_.ignore_unknown_comments;
    files_.strict_yaml = opts_.strict;
    std::vector<SourceFile> read = read_file_set(opts_.files, stdin_use_, read_rules());
    apply_file_marks(read, opts_.file_marks);
    for (auto& f : read) files_.files.push_back(std::move(f));
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

  // The YAML of input file `i` as classification loaded it (once; a file templated twice, as
  // a schema and a data values file, is loaded again).
  std::optional<LoadedYaml> take_loaded(size_t i) {
    auto node = loaded_.extract(i);
    if (node.empty()) return std::nullopt;
    return std::move(node.mapped());
  }

  // Templates a schema or data values file (ytt's EvalYAML in those phases, where
  // data.values is still empty); `stage` and `order` name the phase in errors.
  std::vector<DDoc> docs_of(size_t i, const std::string& stage,
                            const std::vector<std::string>& order) {
    const SourceFile& f = files_.files[i];
    try {
      return eval_template(files_, f, thread_, take_loaded(i));
    } catch (const TemplateError& e) {
      if (e.compile) {
        throw YttError{multi_line_error(stage + " (in following order: " + join(order) +
                                        "): Templating file '" + f.path + "': " + e.text)};
      }
      throw YttError{stage + " (in following order: " + join(order) + "):\n  Templating file '" +
                     f.path + "': \n" + e.text};
    }
  }

  // ytt's RunWithFiles: flags, schema, (schema inspection), data values, validations, then
  // the data values or the rendered templates.
  std::string pipeline() {
    choose_output_types();
    read_inputs();
    input_count_ = files_.files.size();
    // Flags are read before any file is templated, as ytt does, so their errors come first.
    std::vector<ValuesSource> flag_sources;
    add_flag_sources(flag_sources);
    classify_files();
    build_schema();
    check_output_types();
    if (opts_.schema_inspect) {
      // ytt prints the schema as it is: no data values are read, no rule is run.
      if (schema_format_ != "openapi-v3") {
        throw YttError{
            "Data values schema export only supported in OpenAPI v3 format; specify "
            "format with --output=openapi-v3 flag"};
      }
      if (format_ == "json" && type_ && has_non_string_key(*type_)) {
        throw Unsupported{"JSON output of a schema with non-string keys"};
      }
      return openapi_output(type_, format_ == "json");
    }
    if (schema_format_ == "openapi-v3") {
      throw YttError{
          "Output type currently only supported for data values schema (i.e. include "
          "--data-values-schema-inspect)"};
    }
    merge_values(std::move(flag_sources));
    if (!opts_.disable_validation) validate();
    refuse_repeated_keys();
    if (opts_.inspect) {
      if (format_ == "pos") throw Unsupported{"-o pos"};
      return inspect_output(*values_);
    }
    if (format_ == "pos") throw Unsupported{"-o pos"};
    files_.data_values = values_;
    return render_templates();
  }

  void check_output_types() const {
    if (opts_.output_empty_type) throw YttError{"Unknown output type ''"};
    if (!opts_.output.empty() && opts_.output != "yaml" && opts_.output != "json" &&
        opts_.output != "pos") {
      throw YttError{"Unknown output type '" + opts_.output + "'"};
    }
  }

  // ytt's OutputType (parse_args has split the list): the file format and the schema type.
  // An unknown type is reported once the schema is built, where ytt first asks for the types.
  void choose_output_types() {
    format_ = opts_.output.empty() ? "yaml" : opts_.output;
    schema_format_ = opts_.output_openapi ? "openapi-v3" : "";
  }

  // ytt's filesByAnnotation: every YAML template is parsed (as plain YAML, not templated) in
  // file order; it is a schema file, or a data values file, when one of its documents carries
  // that annotation. A file that does not parse stops the run here, before any templating.
  // ytt looks for data values documents only after the schema is built, so a misplaced
  // `@data/values` is reported then (`values_problem_`).
  void classify_files() {
    std::vector<YamlPreloader::Input> order;
    std::vector<size_t> yaml_inputs;
    for (size_t i = 0; i < input_count_; ++i) {
      const auto& f = files_.files[i];
      if (!is_yaml(f) || !own_file(i)) continue;
      yaml_inputs.push_back(i);
      order.push_back({i, f.path, f.text()});
    }
    not_for_output_.assign(input_count_, false);
    preloader_ = std::make_unique<YamlPreloader>(std::move(order), files_.strict_yaml,
                                                 opts_.after_loading_thread, kPreloadMinBytes);
    for (size_t i : yaml_inputs) {
      const SourceFile& f = files_.files[i];
      (void)f.readable_text();  // ytt reads each YAML file here, in this order
      std::optional<LoadedYaml> y = preloader_->take(i);
      if (!y) y = load_yaml(f.path, f.text(), files_.strict_yaml);
      throw_syntax_error(*y, f);
      if (annotated_documents(*y, f.text(), "data/values-schema")) {
        schema_files_.push_back(i);
        not_for_output_[i] = true;
      }
      try {
        if (annotated_documents(*y, f.text(), "data/values")) {
          value_files_.push_back(i);
          not_for_output_[i] = true;
        }
      } catch (const YttError& e) {
        if (!values_problem_) values_problem_ = e;
      }
      loaded_.emplace(i, std::move(*y));
    }
  }

  // "Unmarshaling YAML template 'x.yaml': yaml: line 3: ..." when `y` is not valid YAML.
  static void throw_syntax_error(const LoadedYaml& y, const SourceFile& f) {
    for (const auto& d : y.diags.items()) {
      // Duplicate keys are not syntax errors to ytt (templating reports them, if at all).
      if (d.severity == diag::Severity::kError && d.code != "HK002") {
        throw YttError{"Unmarshaling YAML template '" + f.path +
                       "': " + go_yaml_error(d, f.text(), true)};
      }
    }
  }

  // The schema documents, merged, as one type (null without schema documents).
  void build_schema() {
    std::vector<std::string> order;
    for (size_t i : schema_files_) order.push_back(files_.files[i].path);
    if (!parent_schemas_.empty()) order.push_back("additional data value schema");
    const std::string stage =
        "Overlaying data values schema (in following order: " + join(order) + "):";
    // ytt's collectSchemaDocs: each file templated and checked, each of its schema documents
    // addressed (`@library/ref`) and typed on its own, before any is merged.
    std::vector<DDoc> docs;
    std::vector<TypePtr> types;
    for (size_t i : schema_files_) {
      std::vector<DDoc> file_docs = docs_of(i, "Overlaying data values schema", order);
      // The run's only schema document is read no more once typed (nothing is merged).
      size_t last_schema_doc = file_docs.size();
      for (size_t k = 0; k < file_docs.size(); ++k)
        if (file_docs[k].ann("data/values-schema")) last_schema_doc = k;
      const bool last_file = i == schema_files_.back() && parent_schemas_.empty();
      for (const auto& d : file_docs) {
        check_placement(d);
        if (!d.ann("data/values-schema") && !doc_empty(d)) {
          const std::string& p = files_.files[i].path;
          throw YttError{stage + "\n  Templating file '" + p + "':\n    Expected schema file '" +
                         p + "' to only have schema documents"};
        }
      }
      for (size_t k = 0; k < file_docs.size(); ++k) {
        DDoc& d = file_docs[k];
        if (!d.ann("data/values-schema")) continue;
        std::vector<LibraryRef> ref;
        try {
          ref = library_ref_of(d.anns);
        } catch (YttError& e) {
          e.text = stage + " " + e.text;
          throw;
        }
        try {
          const bool sole = last_file && k == last_schema_doc && docs.empty() && ref.empty();
          TypePtr t = sole ? infer_document(std::move(d), files_) : infer_document(d, files_);
          if (!ref.empty()) {  // meant for a library this one uses
            auto e = std::make_shared<Envelope>();
            e->desc = "Schema belonging to library '" + library_ref_text(ref) + "' on line " +
                      pos_text(d.span);
            e->ref = std::move(ref);
            e->src.doc = std::move(d);
            child_schemas_.push_back(std::move(e));
            continue;
          }
          types.push_back(std::move(t));
          docs.push_back(std::move(d));
        } catch (YttError& e) {
          e.text = stage + e.text;
          throw;
        }
      }
    }
    for (auto& e : passed_schemas_) child_schemas_.push_back(e);
    for (auto& e : parent_schemas_) {
      try {
        types.push_back(infer_document(e->src.doc, files_));
        docs.push_back(e->src.doc);
      } catch (YttError& err) {
        err.text = stage + err.text;
        throw;
      }
    }
    if (docs.empty()) return;
    if (docs.size() == 1) {
      type_ = std::move(types[0]);
    } else {
      types.clear();
      try {
        DDoc merged = docs[0];
        for (size_t k = 1; k < docs.size(); ++k) {
          overlay_document(merged.value, docs[k], thread_, files_, false, false, true,
                           &merged.span);
        }
        type_ = infer_document(merged, files_);
      } catch (YttError& e) {
        e.text = stage + e.text;
        throw;
      }
    }
    values_ = default_of(*type_);
    root_span_ = type_->declared;
  }

  // How plain data values YAML (--data-values-file, YAML flag values) is read: ytt parses it
  // without templating, so a repeated key stays two items, overlaid in turn.
  yaml::LoadOptions values_yaml_options() const {
    yaml::LoadOptions o = ytt_yaml_options(opts_.strict);
    o.keep_duplicate_keys = true;
    return o;
  }

  // Final data values that still hold a map with a repeated key (a plain file's first
  // document taken as it is, a YAML flag value put in place) make ytt panic when it turns them
  // into Go data for output or templates.
  void refuse_repeated_keys() const {
    if (repeated_keys_ && values_ && has_repeated_key(*values_)) {
      throw Unsupported{"data values holding a map key twice (ytt panics)"};
    }
  }

  static bool has_repeated_key(const DNode& n) {
    if (n.is_map()) {
      std::unordered_set<std::string> seen;
      std::string scratch;
      for (const auto& e : n.entries) {
        if (!e.key_node && !seen.insert(std::string(checker_key(e.key, scratch))).second) {
          return true;
        }
      }
    }
    for (const auto& e : n.entries)
      if (e.value && has_repeated_key(*e.value)) return true;
    return false;
  }

  // ytt's DataValuesPreProcessing: data values documents in file order, then the flags, each
  // overlaid onto the result so far and type-checked.
  void merge_values(std::vector<ValuesSource> flag_sources) {
    if (values_problem_) throw *values_problem_;
    std::vector<std::string> order;
    for (size_t i : value_files_) order.push_back(files_.files[i].path);
    if (!flag_sources.empty() || !parent_values_.empty()) order.push_back("additional data values");
    const std::string stage = "Overlaying data values (in following order: " + join(order) + "):";
    // ytt's collectDataValuesDocs: each file templated and checked, each of its data values
    // documents addressed to a library or to this one, before any is overlaid.
    for (size_t i : value_files_) {
      std::vector<DDoc> docs = docs_of(i, "Overlaying data values", order);
      const std::string& p = files_.files[i].path;
      for (const auto& d : docs) {
        if (!d.ann("data/values") && !doc_empty(d)) {
          throw YttError{stage + "\n  Templating file '" + p +
                         "':\n    Expected data values file '" + p +
                         "' to only have data values documents"};
        }
      }
      for (auto& d : docs) {
        check_placement(d);
        if (!d.ann("data/values")) continue;
        std::vector<LibraryRef> ref;
        try {
          ref = data_values_library_ref(d.anns);
        } catch (YttError& e) {
          e.text = stage + " " + e.text;
          throw;
        }
        if (!ref.empty()) {  // meant for a library this one uses
          auto e = std::make_shared<Envelope>();
          e->desc = "Data Value belonging to library '" + library_ref_text(ref) + "' on line " +
                    pos_text(d.span);
          e->ref = std::move(ref);
          for (const auto& a : d.anns) {
            for (const auto& [name, v] : a.kwargs) {
              if (a.name == "data/values" && name == "after_library_module") {
                e->after_library_module = v.as_bool();
              }
            }
          }
          e->src = {std::move(d), false, false, p};
          child_values_.push_back(std::move(e));
          continue;
        }
        sources_.push_back({std::move(d), false, false, p});
      }
    }
    for (auto& src : flag_sources) sources_.push_back(std::move(src));
    for (auto& e : flag_child_values_) child_values_.push_back(e);
    for (auto& e : passed_values_) child_values_.push_back(e);
    for (auto& e : parent_values_) sources_.push_back(e->src);
    for (auto& src : sources_) {
      if (!type_ && !values_) {
        // Without a schema the first document is the start: its own rules stay with it.
        root_anns_ = &src.doc.anns;
        root_span_ = src.doc.span;
      }
      try {
        overlay_document(values_, src.doc, thread_, files_, src.missing_ok, src.plain, false,
                         &root_span_, /*release_right=*/true);
      } catch (YttError& e) {
        e.text = stage + e.text;
        throw;
      }
      // A plain file's document that replaced the whole value is where ytt then points.
      if (src.plain && values_ == src.doc.value) root_span_ = src.doc.span;
      // The document now lives on in `values_` where it was merged: holding it as well would
      // keep every node the overlay copied alive twice (and make the defaults below copy).
      src.doc.value.reset();
      if (type_) {
        std::vector<TypeProblem> problems;
        check_and_fill(values_, *type_, problems, &root_span_);
        if (!problems.empty()) {
          for (const auto& p : problems) {
            if (is_no_position(p.at)) {
              throw Unsupported{
                  "a type error on a map a data value flag builds for its key path "
                  "(ytt crashes)"};
            }
            if (is_unprintable_memory(p.at)) {
              throw Unsupported{
                  "a type error on a map or array given to library.with_data_values (ytt quotes "
                  "a Go pointer)"};
            }
            // The document itself is at an unknown place, which ytt shows as such; a map or
            // array in its place has no position at all, on which ytt crashes.
            if (src.in_memory && p.at.file.empty() && !memory_line(p.at) &&
                (p.found == "map" || p.found == "array")) {
              throw Unsupported{"type errors in values given to library.with_data_values"};
            }
          }
          SchemaError e{.summary = "One or more data values were invalid"};
          for (const auto& p : problems) e.failures.push_back(assertion_of(p));
          // ytt's newline after the text
          throw YttError{stage + " " + render(files_, e) + "\n", 1, {}, problems_of(files_, e)};
        }
      }
    }
    if (!values_) values_ = make_node(yaml::Kind::kMap);
    values_ready_ = true;
  }

  // ytt's validateValues: the schema's rules and the `@assert/validate` rules on the values.
  void validate() {
    static const std::vector<Ann> kNoAnns;
    std::string failures;
    std::vector<Problem> problems;
    try {
      failures = validate_values(values_, type_.get(), root_anns_ ? *root_anns_ : kNoAnns,
                                 root_span_, thread_, files_, &problems);
    } catch (YttError& e) {
      e.text = "Validating final data values:\n" + e.text;
      throw;
    }
    if (!failures.empty()) {
      throw YttError{"Validating final data values:\n" + failures, 1, {}, std::move(problems)};
    }
  }

  // ytt prints the values as one document, and its printer skips an empty one (null, `{}`).
  std::string inspect_output(const DNode& values) {
    if (values.is_null() || (!values.is_scalar() && values.entries.empty())) return {};
    if (format_ == "json") return has_non_finite(values) ? std::string() : json_output(values);
    return emit_yaml(values);
  }

  // ytt's DocExtractor on a file as parsed: `@name` on documents only, once per document.
  // True when some document carries it.
  static bool annotated_documents(const LoadedYaml& file, std::string_view text,
                                  const std::string& name) {
    if (!file.has_marker) return false;  // no "#@" in the text: no annotation anywhere
    size_t on_documents = 0;
    for (const auto& d : file.docs) {
      for (const auto& a : d.annotations) on_documents += a.name == name;
    }
    // Every `@name` in the file is on a document when the text writes it no more often.
    if (written_annotations(text, name) > on_documents) {
      for (const auto& d : file.docs) check_not_on_items(d.root, name);
    }
    bool found = false;
    for (const auto& d : file.docs) {
      int count = 0;
      for (const auto& a : d.annotations) count += a.name == name;
      if (count > 1) throw YttError{name + " annotation may only be used once per document"};
      found = found || count == 1;
    }
    return found;
  }

  // How often `text` writes `#@name` followed by a space, a tab or the end of its line: never
  // less often than annotations named `name` occur in it (a name runs to a space or a tab).
  static size_t written_annotations(std::string_view text, std::string_view name) {
    const std::string written = "#@" + std::string(name);
    size_t count = 0;
    for (size_t at = text.find(written); at != std::string_view::npos;
         at = text.find(written, at + 1)) {
      size_t after = at + written.size();
      if (after == text.size() ||
          std::string_view(" \t\r\n").find(text[after]) != std::string_view::npos) {
        ++count;
      }
    }
    return count;
  }

  static void check_not_on_items(const yaml::Node& n, const std::string& name) {
    auto refuse = [&](const char* what, const diag::Span& at) {
      throw YttError{"Found @" + name + " on " + what + " (" + pos_text(at) +
                     "); only documents (---) can be annotated with @" + name};
    };
    for (const auto& it : n.items) {
      for (const auto& a : it.annotations)
        if (a.name == name) refuse("map item", it.span);
      check_not_on_items(it.value, name);
    }
    for (const auto& el : n.elements) {
      for (const auto& a : el.annotations)
        if (a.name == name) refuse("array item", el.span);
      check_not_on_items(el, name);
    }
  }

  void check_placement(const DDoc& d) {
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
  }

  // ytt's empty documents (null, `{}`, `[]`) are left out of the output.
  static bool empty_doc(const DDoc& d) { return doc_empty(d); }

  // Template evaluation, then ytt's overlay post-processing, into `output_`: documents
  // annotated `@overlay/match` are overlays, applied in file order to the other (non-empty)
  // documents. A library's `.star` and `.lib.yml` files run too, for their exports. True when
  // text templates were met (they are not printed).
  bool evaluate_documents() {
    std::vector<std::vector<DDoc>>& sets = output_;
    std::vector<DDoc> overlays;
    std::vector<std::string> overlay_files;
    bool text_output = false;  // ytt renders text templates to files only, and says so
    // Evaluated in ytt's order (folder by folder), collected in file order (ytt sorts its
    // output and overlays by file).
    std::vector<std::optional<std::vector<DDoc>>> results(input_count_);
    for (size_t i : evaluation_order()) {
      const auto& f = files_.files[i];
      // ytt's switch: a file for output is rendered by its type; a library file (or a schema
      // or values file that is one) runs for its exports; anything else is left alone.
      if (!is_for_output(f) || not_for_output_[i]) {
        if (!is_library_file(f)) continue;
        std::optional<sl::Module> m = eval_library_file(f);
        if (library_mode() && m)
          exports_.push_back({f.path.substr(files_.library_root.size() + 1), *m});
        continue;
      }
      if (file_type(f) == FileType::kText) {
        // ytt writes text templates to output files only (a library's are dropped); a
        // text-plain file is output as it is, with nothing to evaluate.
        std::string text = is_template_file(f) || is_library_file(f) ? eval_text_file(f) : f.readable_text();
        if (!library_mode()) output_files_.push_back({f.path, std::move(text)});
        text_output = text_output || !library_mode();
        continue;
      }
      if (file_type(f) != FileType::kYaml) throw YttError{"Unknown file type"};
      std::optional<LoadedYaml> y = take_loaded(i);
      if (!y) y = load_yaml(f.path, f.text(), files_.strict_yaml);
      // ytt hands every template data.values as structs, and panics on a map key that is not
      // a string (core.GoValue); a plain YAML file gets no data module.
      const bool plain = !is_template_file(f) && !is_library_file(f);  // e.g. yaml-plain
      if (values_ && !plain && is_templated(*y) && has_non_string_key(*values_)) {
        throw Unsupported{
            "data values with a map key that is not a string in templates (ytt panics)"};
      }
      try {
        results[i] = eval_template(files_, f, thread_, std::move(y));
      } catch (const TemplateError& e) {
        if (library_mode()) throw;  // the caller nests the failure in its own
        if (e.compile) throw YttError{multi_line_error(e.text)};
        throw YttError{"\n" + e.text};  // the text already starts with "- "
      }
    }
    for (size_t i = 0; i < input_count_; ++i) {
      if (!results[i]) continue;
      std::vector<DDoc> kept;
      bool has_overlays = false;
      for (auto& d : *results[i]) {
        if (d.ann("data/values-schema") || d.ann("data/values")) continue;
        if (d.ann("overlay/match")) {
          overlays.push_back(std::move(d));
          has_overlays = true;
        } else if (!empty_doc(d)) {
          kept.push_back(std::move(d));
        }
      }
      if (has_overlays) overlay_files.push_back(files_.files[i].path);
      if (!kept.empty()) {
        sets.push_back(std::move(kept));
        set_files_.push_back(i);
      }
    }
    check_library_documents_used();
    if (!overlays.empty()) {
      try {
        overlay_output(sets, overlays, overlay_files, thread_, files_);
      } catch (const OverlayError& e) {
        throw YttError{e.message, e.unsupported ? 2 : 1};  // run() lays it out
      }
      // ytt's overlay reads every document back as YAML nodes: a dict or list a document
      // value computed is then a map or array like any other, empty ones included.
      for (auto& set : sets)
        for (auto& d : set) d.computed = false;
    }
    return text_output;
  }

  // ytt's ListAccessibleFiles: the order this library's files are evaluated in. A folder's
  // own files come first (in file set order), then each sub-folder, depth first, in the
  // order its first file appears; private libraries (`_ytt_lib`) are left out.
  std::vector<size_t> evaluation_order() const {
    struct Folder {
      std::vector<size_t> files;
      std::vector<std::pair<std::string_view, std::unique_ptr<Folder>>> children;
    };
    Folder root;
    const std::string& lib = files_.library_root;
    for (size_t i = 0; i < input_count_; ++i) {
      if (!own_file(i)) continue;
      std::string_view rel = files_.files[i].path;
      if (!lib.empty()) rel.remove_prefix(lib.size() + 1);
      Folder* at = &root;
      for (size_t slash; (slash = rel.find('/')) != std::string_view::npos;
           rel.remove_prefix(slash + 1)) {
        const std::string_view name = rel.substr(0, slash);
        Folder* next = nullptr;
        for (auto& [n, child] : at->children)
          if (n == name) next = child.get();
        if (!next) next = at->children.emplace_back(name, std::make_unique<Folder>()).second.get();
        at = next;
      }
      at->files.push_back(i);
    }
    std::vector<size_t> order;
    auto walk = [&order](const Folder& f, auto&& self) -> void {
      order.insert(order.end(), f.files.begin(), f.files.end());
      for (const auto& [n, child] : f.children) self(*child, self);
    };
    walk(root, walk);
    return order;
  }

  // ytt runs every library file for its exports (evalFunc), loaded or not, in evaluation order
  // with the templates; its failure stops the run with the file's own error (in a library,
  // nested in the caller's). A file that a template loaded already runs again (ytt keeps no
  // modules between loads). A library file of no known type runs nothing and exports nothing.
  std::optional<sl::Module> eval_library_file(const SourceFile& f) {
    if (file_type(f) != FileType::kUnknown) (void)f.readable_text();  // read to be run
    switch (file_type(f)) {
      case FileType::kText:
        eval_text_file(f);
        return files_.module_cache[f.path];
      case FileType::kStarlark: {
        auto m = load_found(files_, thread_, f, f.path);
        if (m.ok()) return *m;
        if (!files_.unsupported.empty()) throw Unsupported{files_.unsupported};
        // load_found says "cannot load x: Evaluating starlark template: " around the failure
        const sl::Error& inner = m.error().cause ? *m.error().cause : m.error();
        if (library_mode()) {
          throw TemplateError{"", false, std::make_shared<sl::Error>(inner),
                              "Evaluating starlark template: "};
        }
        throw YttError{"Evaluating starlark template: \n" + starlark_error_text(files_, inner)};
      }
      case FileType::kYaml: {
        LoadedYaml y = load_yaml(f.path, f.text(), files_.strict_yaml);
        throw_syntax_error(y, f);
        try {
          (void)eval_template(files_, f, thread_, std::move(y));
        } catch (const TemplateError& e) {
          if (library_mode()) throw;  // the caller nests the failure in its own
          if (e.compile) throw YttError{multi_line_error(e.text)};
          throw YttError{"\n" + e.text};
        }
        return files_.module_cache[f.path];
      }
      case FileType::kUnknown:
        break;
    }
    return std::nullopt;
  }

  // A text template of the file set, evaluated in file order with the YAML templates (its
  // text goes to output files only, which hintkit does not write).
  std::string eval_text_file(const SourceFile& f) {
    (void)f.readable_text();
    // As for YAML templates: ytt panics on data values with a non-string map key.
    if (values_ && has_non_string_key(*values_)) {
      throw Unsupported{
          "data values with a map key that is not a string in templates (ytt panics)"};
    }
    try {
      return eval_text_template(files_, f, thread_);
    } catch (const TemplateError& e) {
      if (library_mode()) throw;  // the caller nests the failure in its own
      if (e.compile) throw YttError{multi_line_error(e.text)};
      // ytt ends its error with a line break even when the text (a source line of text
      // ending in one) has its own.
      const bool own_break = !e.text.empty() && e.text.back() == '\n';
      throw YttError{"Evaluating text template: \n" + e.text + (own_break ? "\n" : "")};
    }
  }

  // The output documents (`evaluate_documents`) as ytt prints them.
  std::string render_templates() {
    std::vector<std::vector<DDoc>>& sets = output_;
    const bool text_output = evaluate_documents();
    std::string out;
    bool first = true;
    // Documents are printed for stdout or for the output files, not for both (printing is a
    // sixth of a large run). JSON is still spelled with output files: its refusals stand.
    const bool to_stdout = !writes_files() || format_ == "json";
    for (const auto& set : sets) {
      if (!to_stdout) break;
      for (const auto& d : set) {
        if (format_ == "json") {
          // ytt: one compact JSON text per document, back to back; null documents and those
          // JSON cannot spell (inf, nan) print nothing.
          if (!doc_empty(d) && !has_non_finite(*d.value)) {
            out += json_output(*d.value);
          }
          continue;
        }
        if (doc_empty(d)) continue;  // ytt's printer skips them (an overlay may empty one)
        if (!first) out += "---\n";
        first = false;
        out += emit_yaml(*d.value);
      }
    }
    // ytt's output files: one per template whose documents (not counting overlays and empty
    // ones) made a set, whatever overlays left in it.
    for (size_t k = 0; k < sets.size() && writes_files(); ++k) {
      std::string text;
      for (const auto& d : sets[k]) {
        if (doc_empty(d)) continue;
        if (!text.empty()) text += "---\n";
        text += emit_yaml(*d.value);
      }
      output_files_.push_back({files_.files[set_files_[k]].path, std::move(text)});
    }
    if (text_output && !writes_files()) {
      err_ +=
          "\nWarning: Found Non-YAML templates in input. Non-YAML templates are not rendered to "
          "standard output.\nIf you want to include those results, use the --output-files or "
          "--dangerous-emptied-output-directory flag.\n";
    }
    return out;
  }

  // ytt's checkUnusedDVsOrSchemas, once every template has run: documents addressed to a
  // library that no library module took.
  void check_library_documents_used() {
    if (schema_crash_)
      throw Unsupported{"a library schema addressed to a sibling library (ytt crashes)"};
    std::vector<std::string> unused;
    for (const auto& e : child_values_)
      if (!e->used) unused.push_back(e->desc);
    std::vector<std::string> kinds;
    if (!unused.empty()) kinds.push_back("data values");
    const size_t values_unused = unused.size();
    for (const auto& e : child_schemas_)
      if (!e->used) unused.push_back(e->desc);
    if (unused.size() > values_unused) kinds.push_back("schema");
    if (unused.empty()) return;
    std::string k = kinds[0];
    if (kinds.size() > 1) k += ", and " + kinds[1];
    throw YttError{"Expected all provided library " + k +
                   " documents to be used but found unused: " + join(unused)};
  }

  // ---- Library modules (ytt's LibraryModule and libraryValue) ------------------------------

  bool library_mode() const { return root_ != this; }

  // Whether input `i` is a file of this library: below its folder and not inside one of its
  // private libraries.
  bool own_file(size_t i) const {
    const SourceFile& f = files_.files[i];
    if (!f.in_file_set) return false;
    std::string_view rest = f.path;
    const std::string& dir = files_.library_root;
    if (!dir.empty()) {
      if (rest.size() <= dir.size() || !rest.starts_with(dir) || rest[dir.size()] != '/') {
        return false;
      }
      rest.remove_prefix(dir.size() + 1);
    }
    return !is_in_private_library(rest);
  }

  // A library instance: which library, and what its caller gives it.
  struct LibraryHandle {
    Engine* owner;
    std::string dir;  // its folder in the file set
    LibraryRef name;  // as library.get named it (path and alias)
    std::vector<EnvelopePtr> values, schemas;
    bool skip_validation = false;
    bool ignore_unknown_comments = false;  // the caller's, unless library.get overrides it
    bool strict = false;                   // likewise
  };
  using HandlePtr = std::shared_ptr<const LibraryHandle>;

  struct Export {
    std::string path;  // relative to the library's folder
    sl::Module globals;
  };

  // `@ytt:library` for the files of folder `folder`.
  sl::Value library_module(const std::string& folder) {
    auto get =
        sl::make_builtin("library.get", [this, folder](const sl::Call& c) -> sl::Result<sl::Value> {
          if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
          if (!c.args[0].is(sl::Kind::kString)) {
            return ytt_fail(c, "expected a string, but was " + std::string(c.args[0].type_name()));
          }
          auto h = std::make_shared<LibraryHandle>();
          h->owner = this;
          h->ignore_unknown_comments = files_.ignore_unknown_comments;
          h->strict = files_.strict_yaml;
          // The run's --dangerous-data-values-disable-validation reaches every library.
          h->skip_validation = library_mode() ? skip_validation_ : opts_.disable_validation;
          h->name.path = std::string(c.args[0].as_string());
          for (const auto& kw : c.kwargs) {
            if (kw.name == "alias") {
              if (!kw.value.is(sl::Kind::kString)) {
                return ytt_fail(c,
                                "expected a string, but was " + std::string(kw.value.type_name()));
              }
              h->name.alias = std::string(kw.value.as_string());
            } else if (kw.name == "ignore_unknown_comments" ||
                       kw.name == "implicit_map_key_overrides" || kw.name == "strict" ||
                       kw.name == "dangerous_data_values_disable_validation") {
              if (!kw.value.is(sl::Kind::kBool)) {
                return ytt_fail(c, "expected starlark.Bool, but was " + go_type_name(kw.value));
              }
              if (kw.name == "dangerous_data_values_disable_validation") {
                h->skip_validation = h->skip_validation || kw.value.as_bool();
              } else if (kw.name == "ignore_unknown_comments") {
                h->ignore_unknown_comments = kw.value.as_bool();
              } else if (kw.name == "strict") {
                h->strict = kw.value.as_bool();
              } else if (kw.value.as_bool()) {
                root_->files_.unsupported = "library.get(" + std::string(kw.name) + "=True)";
                return ytt_fail(c, root_->files_.unsupported);
              }
            } else {
              return ytt_fail(c, "Unexpected kwarg '" + std::string(kw.name) + "'");
            }
          }
          if (h->name.path.starts_with("@")) {
            return ytt_fail(c,
                            "Expected library '" + h->name.path + "' to be specified without '@'");
          }
          std::string error;
          auto dir = find_accessible_library(files_, folder, h->name.path, error);
          if (!dir) return ytt_fail(c, error);
          h->dir = *dir;
          if (values_ready_) {
            h->values = child_values_;
            h->schemas = child_schemas_;
          }
          return library_value(h);
        });
    return sl::make_struct("module", "library", {{"get", get}});
  }

  // ytt's libraryValue: immutable; with_* return new instances.
  static sl::Value library_value(HandlePtr h) {
    const std::string desc =
        h->name.alias.empty() ? h->name.path : h->name.path + "~" + h->name.alias;
    auto with_values = sl::make_builtin(
        "library.with_data_values", [h](const sl::Call& c) -> sl::Result<sl::Value> {
          if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
          bool plain = false;
          for (const auto& kw : c.kwargs) {
            if (kw.name != "plain")
              return ytt_fail(c, "invalid argument name: " + std::string(kw.name));
            if (!kw.value.is(sl::Kind::kBool)) {
              return ytt_fail(c, "expected starlark.Bool, but was " + go_type_name(kw.value));
            }
            plain = kw.value.as_bool();
          }
          auto e = std::make_shared<Envelope>();
          e->src.doc.value = from_starlark(c.args[0], diag::Span{});
          remember_memory_lines(*e->src.doc.value);
          if (plain && has_node_annotations(*e->src.doc.value)) {
            return ytt_fail(
                c,
                "Expected to be plain YAML, having no annotations (hint: remove comments "
                "starting with `#@`)");
          }
          e->src.plain = plain;
          e->src.missing_ok = plain;
          e->src.in_memory = true;
          auto next = std::make_shared<LibraryHandle>(*h);
          next->values.push_back(std::move(e));
          return library_value(next);
        });
    auto with_schema = sl::make_builtin(
        "library.with_data_values_schema", [h](const sl::Call& c) -> sl::Result<sl::Value> {
          if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
          auto e = std::make_shared<Envelope>();
          // ytt makes YAML nodes of it (NewASTFromInterface)
          e->src.doc.value = yaml_copy(*from_starlark(c.args[0], diag::Span{}));
          auto next = std::make_shared<LibraryHandle>(*h);
          next->schemas.push_back(std::move(e));
          return library_value(next);
        });
    auto eval =
        sl::make_builtin("library.eval", [h, desc](const sl::Call& c) -> sl::Result<sl::Value> {
          if (!c.args.empty()) return ytt_fail(c, "expected no arguments");
          std::vector<DDoc> docs;
          auto err =
              h->owner->run_library(c, *h, "Evaluating library '" + desc + "': ", [&](Engine& lib) {
                lib.evaluate_documents();
                lib.check_library_documents_used();
                for (auto& set : lib.output_)
                  for (auto& d : set) docs.push_back(std::move(d));
              });
          if (err) return *err;
          return make_docset_fragment(std::move(docs));
        });
    auto data_values = sl::make_builtin(
        "library.data_values", [h, desc](const sl::Call& c) -> sl::Result<sl::Value> {
          if (!c.args.empty()) return ytt_fail(c, "expected no arguments");
          sl::Value out;
          auto err = h->owner->run_library(
              c, *h, "Exporting from library '" + desc + "': ", [&](Engine& lib) {
                out = to_struct_value(lib.values_);
              });
          if (err) return *err;
          return out;
        });
    auto export_ =
        sl::make_builtin("library.export", [h, desc](const sl::Call& c) -> sl::Result<sl::Value> {
          const std::string prefix = "Exporting from library '" + desc + "': ";
          if (c.args.size() != 1) return ytt_fail(c, prefix + "expected exactly one argument");
          if (!c.args[0].is(sl::Kind::kString)) {
            return ytt_fail(
                c, prefix + "expected a string, but was " + std::string(c.args[0].type_name()));
          }
          const std::string symbol(c.args[0].as_string());
          std::string path;
          for (const auto& kw : c.kwargs) {
            if (kw.name != "path") {
              return ytt_fail(
                  c, prefix + "Unexpected keyword argument '" + std::string(kw.name) + "'");
            }
            if (!kw.value.is(sl::Kind::kString)) {
              return ytt_fail(
                  c, prefix + "expected a string, but was " + std::string(kw.value.type_name()));
            }
            path = std::string(kw.value.as_string());
          }
          if (symbol.starts_with("_")) {
            return ytt_fail(
                c, prefix + "Symbols starting with '_' are private, and cannot be exported");
          }
          std::vector<std::pair<std::string, sl::Value>> found;
          auto err = h->owner->run_library(c, *h, prefix, [&](Engine& lib) {
            lib.evaluate_documents();
            lib.check_library_documents_used();
            for (const auto& ex : lib.exports_) {
              auto v = ex.globals.get(symbol);
              if (v && (path.empty() || path == ex.path)) found.emplace_back(ex.path, *v);
            }
          });
          if (err) return *err;
          if (found.empty()) {
            return ytt_fail(
                c, prefix + "Expected to find exported symbol '" + symbol + "', but did not");
          }
          if (found.size() > 1) {
            std::string paths;
            for (const auto& [p, v] : found) paths += (paths.empty() ? "" : ", ") + p;
            return ytt_fail(c, prefix + "Expected to find exactly one exported symbol '" + symbol +
                                   "', but found multiple across files: " + paths);
          }
          return found[0].second;
        });
    return sl::make_struct("module", "library",
                           {{"with_data_values", with_values},
                            {"with_data_values_schema", with_schema},
                            {"eval", eval},
                            {"export", export_},
                            {"data_values", data_values}});
  }

  // Runs library `h` up to its final data values, then `then` on it. A failure comes back as
  // the builtin's error: "NAME: PREFIX..." (a template's failure nested as its reason).
  std::optional<sl::Error> run_library(const sl::Call& c, const LibraryHandle& h,
                                       const std::string& prefix,
                                       const std::function<void(Engine&)>& then) {
    std::vector<EnvelopePtr> values, after, schemas;
    bool crash = false;
    for (const auto& e : h.schemas) {
      if (auto copy = used_in_library(*e, h.name)) {
        schemas.push_back(std::move(copy));
      } else {
        crash = true;  // ytt passes a nil schema on and dereferences it
      }
    }
    std::vector<EnvelopePtr> children;
    for (const auto& e : h.values) {
      auto copy = used_in_library(*e, h.name);
      if (!copy) continue;
      if (!copy->ref.empty()) {
        children.push_back(std::move(copy));
      } else {
        (copy->after_library_module ? after : values).push_back(std::move(copy));
      }
    }
    // Its own values (after_library_module last), then those for its libraries.
    for (auto* more : {&after, &children})
      for (auto& e : *more) values.push_back(std::move(e));
    auto lib = std::make_shared<Engine>(*this, h.dir, std::move(values), std::move(schemas),
                                        h.skip_validation);
    lib->schema_crash_ = crash;
    lib->repeated_keys_ = repeated_keys_;  // flag values for the library were read here
    lib->files_.ignore_unknown_comments = h.ignore_unknown_comments;
    lib->files_.strict_yaml = h.strict;
    libraries_.push_back(lib);
    const std::string head = std::string(c.name) + ": " + prefix;
    try {
      lib->classify_files();
      lib->build_schema();
      lib->merge_values({});
      if (!lib->skip_validation_) lib->validate();
      lib->refuse_repeated_keys();
      lib->files_.data_values = lib->values_;
      then(*lib);
      return std::nullopt;
    } catch (const Unsupported& u) {
      root_->files_.unsupported = u.feature;
      return sl::fail_error(head + u.feature);
    } catch (const TemplateError& e) {
      if (!lib->files_.unsupported.empty()) root_->files_.unsupported = lib->files_.unsupported;
      for (const auto& [k, v] : lib->files_.compiled) files_.compiled[k] = v;
      if (e.error && !e.compile) {
        sl::Error out = sl::fail_error(head + e.head);
        out.cause = e.error;
        return out;
      }
      return sl::fail_error(head + e.text);
    } catch (const OverlayError& e) {
      if (e.unsupported) root_->files_.unsupported = e.message;
      return sl::fail_error(head + e.message);
    } catch (const YttError& e) {
      if (!lib->files_.unsupported.empty()) root_->files_.unsupported = lib->files_.unsupported;
      std::string text = e.text;
      if (text.ends_with('\n')) text.pop_back();  // the nesting ends its last line itself
      return sl::fail_error(head + text);
    }
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

  std::string json_output(const DNode& v) {
    if (has_non_string_key(v)) throw Unsupported{"JSON output of a map with non-string keys"};
    return yaml::emit_json(sorted_copy(v));
  }

  // ytt panics on these (its JSON encoder takes string keys only).
  static bool has_non_string_key(const SType& t) {
    for (size_t i = 0; i < t.fields.size(); ++i) {
      if (t.key(i).kind != yaml::Kind::kString || has_non_string_key(t.field_type(i))) return true;
    }
    return t.item && has_non_string_key(*t.item_type());
  }
  static bool has_non_string_key(const DNode& v) {
    for (const auto& e : v.entries) {
      if (v.is_map() && e.key.kind != yaml::Kind::kString) return true;
      if (has_non_string_key(*e.value)) return true;
    }
    return false;
  }

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

  // A source that is not a file (a flag's text), named `label` in messages. `whole`: the
  // text is split into lines; else it is one line, whatever it holds.
  SourceFile& pseudo(const std::string& label, const std::string& text, bool whole = false) {
    SourceFile f;
    f.path = "\x01" + std::to_string(pseudo_base_ + files_.files.size());
    f.label = label;
    f.lines = whole ? SourceLines(text) : SourceLines::one(text);
    files_.files.push_back(std::move(f));
    return files_.files.back();
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
    std::vector<LibraryRef> ref;
    try {
      ref = parse_library_ref(lib);
    } catch (YttError& e) {
      e.text = context + e.text;
      throw;
    }
    auto e = std::make_shared<Envelope>();
    e->desc = "Data Value belonging to library '" + library_ref_text(ref) + "' on line " + where;
    e->ref = std::move(ref);
    e->src = std::move(src);
    flag_child_values_.push_back(std::move(e));
  }

  // --data-values-file: plain YAML documents, each an overlay.
  void values_file_flag(const std::string& arg, std::vector<ValuesSource>& sources) {
    const std::string context = "Extracting data value from file:\n  ";
    const auto [lib, path] = split_library_ref(arg);
    if (url_of(path)) throw Unsupported{"--data-values-file from a URL"};
    FoundFiles found;
    try {
      found = find_files(path, stdin_use_, read_rules());
    } catch (const StdinTaken& taken) {
      throw YttError{context + "Reading file '" + taken.name + "':\n    " + StdinTaken::kText};
    } catch (YttError& e) {
      e.text = laid_out_after(context + "Find files '" + path + "':\n    ", e.text);
      throw;
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
        repeated_keys_ |= d.code == "HK002";
        if (d.severity == diag::Severity::kError && d.code != "HK002") {
          throw YttError{laid_out_after("Extracting data value from file:\n  ",
                                        "Unmarshaling YAML data values file '" + f.path +
                                            "': " + go_yaml_error(d, f.text(), true))};
        }
      }
      files_.files.push_back(std::move(f));
      for (const auto& d : docs) {
        if (d.empty) continue;
        if (!d.annotations.empty() || has_annotations(d.root)) {
          throw YttError{"Extracting data value from file:\n  Checking data values file '" + path +
                         "':\n    Expected to be plain YAML, having no annotations (hint: remove "
                         "comments starting with `#@`)"};
        }
        if (has_array_in_key(d.root)) {
          throw Unsupported{
              "a map key that holds an array (ytt prints its array items' internals)"};
        }
        DDoc dd;
        dd.value = from_yaml(d.root);
        dd.span = d.span;
        const std::string_view first_line = files_.files.back().lines[0];
        if (d.span.begin.line == 1 && !first_line.starts_with("---")) {
          dd.span.file = pseudo(name, "").path;  // ytt shows no text for an implicit document
        }
        add_source(sources, {dd, true, true, path}, lib,
                   name + ":" + std::to_string(d.span.begin.line),
                   "Extracting data value from file:\n  ");
      }
    }
  }

  // --data-values-env[-yaml] PREFIX: every PREFIX_a__b=value variable, in the environment's
  // order, as a.b: value.
  void env_flag(const std::string& arg, const std::string& flag,
                std::vector<ValuesSource>& sources) {
    const std::string context = "Extracting data values from env under prefix '" + arg + "':\n  ";
    std::string lib, prefix;
    try {
      std::tie(lib, prefix) = split_library_key(arg);
    } catch (YttError& e) {
      e.text = context + e.text;
      throw;
    }
    for (const auto& kv : opts_.environment) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) {
        throw YttError{context + "Expected env variable to be key-value pair (format: key=value)"};
      }
      const std::string name = kv.substr(0, eq);
      if (!name.starts_with(prefix + "_")) continue;
      SourceFile& pf = pseudo("(" + flag + " arg) " + prefix, kv);
      diag::Span span{pf.path, {1, 1}, {1, 1}};
      const std::string raw = kv.substr(eq + 1);
      DPtr v = flag == "data-values-env-yaml"
                   ? parse_yaml_value(
                         context + "Extracting data value from env variable '" + name + "':\n    ",
                         raw, span)
                   : string_node(raw, span);
      add_source(sources,
                 {kv_doc(split(name.substr(prefix.size() + 1), "__"), v, span), true, false, ""},
                 lib, "(" + flag + " arg) " + prefix + ":1", context);
    }
  }

  // -v / --data-value[-yaml] key.path=value.
  void kv_flag(const std::string& kv, const std::string& flag, std::vector<ValuesSource>& sources) {
    const std::string context = "Extracting data value from KV:\n  ";
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) throw YttError{context + "Expected format key=value"};
    const std::string raw_key = kv.substr(0, eq), raw = kv.substr(eq + 1);
    SourceFile& pf = pseudo("(" + flag + " arg)", kv);
    diag::Span span{pf.path, {1, 1}, {1, 1}};
    DPtr v = flag == "data-value-yaml"
                 ? parse_yaml_value(
                       context + "Deserializing value for key '" + raw_key + "':\n    ", raw, span)
                 : string_node(raw, span);
    std::string lib, key;
    try {
      std::tie(lib, key) = split_library_key(raw_key);
    } catch (YttError& e) {
      e.text = context + e.text;
      throw;
    }
    add_source(sources, {kv_doc(split(key, "."), v, span), true, false, ""}, lib,
               "(" + flag + " arg):1", context);
  }

  // --data-value-file key.path=file: the file's text as a string.
  void kv_file_flag(const std::string& kv, std::vector<ValuesSource>& sources) {
    const std::string context = "Extracting data value from file:\n  ";
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) throw YttError{context + "Expected format key=/file/path"};
    const std::string raw_key = kv.substr(0, eq), path = kv.substr(eq + 1);
    if (url_of(path)) throw Unsupported{"--data-value-file from a URL"};
    FoundFiles found;
    try {
      found = find_files(path, stdin_use_, read_rules());
    } catch (const StdinTaken&) {
      throw YttError{context + "Reading file '" + path + "'"};  // ytt gives no reason here
    } catch (YttError& e) {
      e.text = laid_out_after(context + "Finding file '" + path + "':\n    ", e.text);
      throw;
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
    std::string lib, key;
    try {
      std::tie(lib, key) = split_library_key(raw_key);
    } catch (YttError& e) {
      e.text = context + e.text;
      throw;
    }
    const std::string label = "(data-value-file arg) " + key + "=" + path;
    SourceFile& pf = pseudo(label, text);
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

  static bool has_node_annotations(const DNode& n) {
    for (const auto& e : n.entries)
      if (!e.anns.empty() || has_node_annotations(*e.value)) return true;
    return false;
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

  // `tail` laid out as go-cli-ui lays out the end of ytt's one-line error, after `context`
  // (the error's first clauses, laid out already): a clause a ": " starts goes on its own
  // line, one step deeper than the line before.
  static std::string laid_out_after(const std::string& context, const std::string& tail) {
    const size_t nl = context.rfind('\n');
    const std::string indent(context.size() - (nl == std::string::npos ? 0 : nl + 1), ' ');
    std::string laid = multi_line_error(tail), out = context;
    for (char ch : laid) {
      out += ch;
      if (ch == '\n') out += indent;
    }
    return out;
  }

  // `context`: the lines of ytt's error before "Deserializing YAML value: ...". A scalar is
  // known by the flag's place (`span`); the items of a map or array by their lines in the
  // value's own text, which ytt names "" (its root by line 1, with no text shown).
  DPtr parse_yaml_value(const std::string& context, const std::string& text,
                        const diag::Span& span) {
    const std::string value_file = pseudo("", text, /*whole=*/true).path;
    diag::Diagnostics diags;
    auto docs = yaml::load(text, value_file, diags, values_yaml_options());
    for (const auto& d : diags.items()) {
      repeated_keys_ |= d.code == "HK002";
      if (d.severity == diag::Severity::kError && d.code != "HK002") {
        throw YttError{
            laid_out_after(context, "Deserializing YAML value: " + go_yaml_error(d, text, true))};
      }
    }
    if (!docs.empty() && has_array_in_key(docs[0].root)) {
      throw Unsupported{"a map key that holds an array (ytt prints its array items' internals)"};
    }
    DPtr v = docs.empty() ? make_node(yaml::Kind::kNull) : from_yaml(docs[0].root);
    if (v->is_scalar()) {
      stamp(*v, span);
    } else {
      v->span = diag::Span{pseudo("", "").path, {1, 1}, {1, 1}};
    }
    return v;
  }

  const Options& opts_;
  Files files_;
  StdinUse stdin_use_;  // -f and the data values flags read standard input once between them
  sl::Thread thread_;
  std::string err_;
  std::map<size_t, LoadedYaml> loaded_;  // input YAML as classification parsed it, until templated
  std::vector<bool> not_for_output_;     // schema and data values files (by input index)
  std::optional<YttError> values_problem_;  // a misplaced @data/values, reported in its phase
  // The pipeline's trees live here, not on the stack, so that `run` can hand them to the
  // caller (Options::free_at_end) instead of freeing them.
  TypePtr type_;
  DPtr values_;
  std::vector<ValuesSource> sources_;
  std::vector<std::vector<DDoc>> output_;  // the output documents, one set per template file
  std::vector<size_t> set_files_;          // the input file of each set of output_
  // Files for --output-files: text results (in evaluation order), then YAML ones (file order).
  std::vector<OutputFile> output_files_;
  std::string printed_files_;  // "creating:" lines of the files written so far
  std::string format_;         // yaml or json
  std::string schema_format_;  // openapi-v3 or ""
  // Documents addressed to the libraries this one uses, in ytt's order, and those its caller
  // addressed to it (`parent_*`: its own; `passed_*`: for its libraries).
  std::vector<EnvelopePtr> child_values_, child_schemas_, flag_child_values_;
  std::vector<EnvelopePtr> parent_values_, parent_schemas_, passed_values_, passed_schemas_;
  bool values_ready_ = false;     // child_values_ complete (library.get hands them on)
  bool skip_validation_ = false;  // library.get(dangerous_data_values_disable_validation=True)
  bool schema_crash_ = false;     // see run_library
  bool repeated_keys_ = false;    // some plain data values YAML repeats a map key
  Engine* root_ = this;           // the root library's engine (output, refusals)
  std::vector<Export> exports_;   // a library's .star and .lib.yml files' globals
  std::vector<std::shared_ptr<Engine>> libraries_;  // executions whose values may live on
  std::vector<size_t> schema_files_, value_files_;  // input files by their documents' annotations
  const std::vector<Ann>* root_anns_ = nullptr;     // the values document's own annotations
  diag::Span root_span_;                            // where ytt says the values document is
  std::unique_ptr<YamlPreloader> preloader_;
  size_t input_count_ = 0;  // files_.files beyond this come from flags
  // Pseudo files are named by a number unique in the run: a library's start past its caller's.
  size_t pseudo_base_ = 0;
};

}  // namespace

Outcome run(const Options& options) {
  // Templates may recurse as deeply as ytt lets them (10,000 calls and more) and build values
  // as deeply nested: the whole run, freeing included, gets a stack as large as Go's.
  Outcome out;
  diag::run_with_big_stack([&] {
    auto engine = std::make_shared<Engine>(options);
    out = engine->run();
    if (!options.free_at_end) out.retained = std::move(engine);
  });
  return out;
}

}  // namespace hintkit::schema

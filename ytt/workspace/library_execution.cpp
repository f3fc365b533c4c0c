// One library's run over its files (ytt's LibraryExecution): the phases the command, and
// library.get for private libraries, run in ytt's order.
#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_set>

#include "ytt/overlay/overlay.h"
#include "ytt/schema/schema.h"
#include "ytt/template/template.h"
#include "ytt/texttemplate/texttemplate.h"
#include "ytt/validations/validations.h"
#include "ytt/workspace/workspace.h"

namespace hintkit::ytt {

namespace {

// Whether a tree holds a map or array made by Starlark (Go data to ytt).
bool holds_go_data(const DNode& root) {
  std::vector<const DNode*> todo{&root};
  while (!todo.empty()) {  // iterative: values may nest 100,000 deep
    const DNode* x = todo.back();
    todo.pop_back();
    if (x->from_code) return true;
    for (const auto& e : x->entries)
      if (e.value) todo.push_back(e.value.get());
  }
  return false;
}

// Files after the first holding less YAML than this are parsed on the main thread: a thread
// costs more to start and end than parsing that much (about 0.3 ms).
constexpr size_t kPreloadMinBytes = size_t{16} << 10;

// YAML templates: the files ytt reads data values and schemas from and renders.
// ytt's filesByAnnotation looks for schemas and data values in YAML templates only.
bool is_yaml(const SourceFile& f) { return file_type(f) == FileType::kYaml && is_template_file(f); }

}  // namespace

std::string comma_list(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out;
}

LibraryExecution::LibraryExecution(ExecutionSettings settings)
    : settings_(std::move(settings)), thread_(make_thread_options(settings_)) {
  files_.library_module = [this](const std::string& folder) {
    return LibraryModule::make(*this, folder);
  };
}

LibraryExecution::LibraryExecution(LibraryExecution& parent, std::string dir,
                                   std::vector<EnvelopePtr> values,
                                   std::vector<EnvelopePtr> schemas, bool skip_validation)
    : thread_(make_thread_options(parent.root_->settings_)), root_(parent.root_) {
  files_.library_module = [this](const std::string& folder) {
    return LibraryModule::make(*this, folder);
  };
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

// `budgets`: the run's settings (a library's execution takes its root's).
sl::ThreadOptions LibraryExecution::make_thread_options(const ExecutionSettings& budgets) {
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

// The YAML of input file `i` as classification loaded it (once; a file templated twice, as
// a schema and a data values file, is loaded again).
std::optional<LoadedYaml> LibraryExecution::take_loaded(size_t i) {
  auto node = loaded_.extract(i);
  if (node.empty()) return std::nullopt;
  return std::move(node.mapped());
}

// Templates a schema or data values file (ytt's EvalYAML in those phases, where
// data.values is still empty); `stage` names the phase in errors.
std::vector<DDoc> LibraryExecution::docs_of(size_t i, const std::string& stage) {
  const SourceFile& f = files_.files[i];
  try {
    return eval_template(files_, f, thread_, take_loaded(i));
  } catch (const TemplateError& e) {
    if (e.compile) {
      throw YttError{stage + ": Templating file '" + f.path + "': " + e.text};
    }
    throw YttError{stage + ": Templating file '" + f.path + "': \n" + e.text};
  }
}

// ytt's filesByAnnotation: every YAML template is parsed (as plain YAML, not templated) in
// file order; it is a schema file, or a data values file, when one of its documents carries
// that annotation. A file that does not parse stops the run here, before any templating.
// ytt looks for data values documents only after the schema is built, so a misplaced
// `@data/values` is reported then (`values_problem_`).
void LibraryExecution::classify_files() {
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
                                               settings_.after_loading_thread, kPreloadMinBytes);
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
void LibraryExecution::throw_syntax_error(const LoadedYaml& y, const SourceFile& f) {
  for (const auto& d : y.diags.items()) {
    // Duplicate keys are not syntax errors to ytt (templating reports them, if at all).
    if (d.severity == diag::Severity::kError && d.code != "HK002") {
      throw YttError{"Unmarshaling YAML template '" + f.path +
                     "': " + go_yaml_error(d, true)};
    }
  }
}

// ytt's DataValuesSchemaPreProcessing; the values start as the schema's defaults.
void LibraryExecution::build_schema() {
  const DataValuesSchemaPreProcessing pp{files_, thread_, phase_templater(), schema_files_,
                                         parent_schemas_};
  type_ = pp.apply(child_schemas_);
  for (auto& e : passed_schemas_) child_schemas_.push_back(e);
  if (!type_) return;
  data_values_.value = default_of(*type_);
  data_values_.span = type_->declared;
}

PhaseTemplater LibraryExecution::phase_templater() {
  return [this](size_t i, const std::string& stage) { return docs_of(i, stage); };
}

// Final data values that still hold a map with a repeated key (a plain file's first
// document taken as it is, a YAML flag value put in place) make ytt panic when it turns them
// into Go data for output or templates.
void LibraryExecution::refuse_repeated_keys() const {
  if (repeated_keys_ && data_values_.value && has_repeated_key(*data_values_.value)) {
    throw Unsupported{"data values holding a map key twice (ytt panics)"};
  }
}

bool LibraryExecution::has_repeated_key(const DNode& n) {
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

// ytt's DataValuesPreProcessing: the data values files, then the flags and the caller's
// documents; documents for the libraries this one uses are handed on once it is done.
void LibraryExecution::merge_values(std::vector<ValuesSource> flag_sources) {
  if (values_problem_) throw *values_problem_;
  for (auto& e : parent_values_) flag_sources.push_back(e->src);
  DataValuesPreProcessing pp{
      files_, thread_, phase_templater(), value_files_, std::move(flag_sources), type_.get()};
  pp.apply(data_values_, child_values_);
  // After the files' documents for libraries: the flags', then those the caller passed on.
  for (auto* more : {&flag_child_values_, &passed_values_})
    for (auto& e : *more) child_values_.push_back(e);
  values_ready_ = true;
}

// ytt's validateValues: the schema's rules and the `@assert/validate` rules on the values.
void LibraryExecution::validate() {
  static const std::vector<Ann> kNoAnns;
  std::vector<Problem> problems;
  const std::string failures = with_context("Validating final data values:\n", [&] {
    return validate_values(data_values_.value, type_.get(),
                           data_values_.anns ? *data_values_.anns : kNoAnns, data_values_.span,
                           thread_, files_, &problems);
  });
  if (!failures.empty()) {
    throw YttError{"Validating final data values:\n" + failures, 1, {}, std::move(problems)};
  }
}

// Template evaluation, then ytt's overlay post-processing, into `output_`: documents
// annotated `@overlay/match` are overlays, applied in file order to the other (non-empty)
// documents. A library's `.star` and `.lib.yml` files run too, for their exports. True when
// text templates were met (they are not printed).
bool LibraryExecution::evaluate_documents() {
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
      std::string text =
          is_template_file(f) || is_library_file(f) ? eval_text_file(f) : f.readable_text();
      if (!library_mode()) text_outputs_.push_back({f.path, std::move(text)});
      text_output = text_output || !library_mode();
      continue;
    }
    if (file_type(f) != FileType::kYaml) throw YttError{"Unknown file type"};
    std::optional<LoadedYaml> y = take_loaded(i);
    if (!y) y = load_yaml(f.path, f.text(), files_.strict_yaml);
    // ytt hands every template data.values as structs, and panics on a map key that is not
    // a string (core.GoValue); a plain YAML file gets no data module.
    const bool plain = !is_template_file(f) && !is_library_file(f);  // e.g. yaml-plain
    if (data_values_.value && !plain && is_templated(*y) &&
        has_non_string_key(*data_values_.value)) {
      throw Unsupported{
          "data values with a map key that is not a string in templates (ytt panics)"};
    }
    try {
      results[i] = eval_template(files_, f, thread_, std::move(y));
    } catch (const TemplateError& e) {
      throw_template_error(e);
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
      } else if (!doc_empty(d)) {
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
    // ytt's overlay reads every document back as YAML nodes (NewASTFromInterface, in
    // place): a dict or list a document value computed is then a map or array like any
    // other, empty ones included, whether an overlay matched it or not.
    for (auto& set : sets) {
      for (auto& d : set) {
        d.computed = false;
        if (d.value && holds_go_data(*d.value)) d.value = yaml_copy(*d.value);
      }
    }
  }
  return text_output;
}

// ytt's ListAccessibleFiles: the order this library's files are evaluated in. A folder's
// own files come first (in file set order), then each sub-folder, depth first, in the
// order its first file appears; private libraries (`_ytt_lib`) are left out.
std::vector<size_t> LibraryExecution::evaluation_order() const {
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
std::optional<sl::Module> LibraryExecution::eval_library_file(const SourceFile& f) {
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
        throw_template_error(e);
      }
      return files_.module_cache[f.path];
    }
    case FileType::kUnknown:
      break;
  }
  return std::nullopt;
}

// A YAML template's failure as the run reports it: a library's caller nests it in its own; at
// the root, a template that does not compile is one line that multi_line_error lays out, and
// any other failure's text already starts with "- ".
void LibraryExecution::throw_template_error(const TemplateError& e) const {
  if (library_mode()) throw e;
  if (e.compile) throw YttError{e.text};
  throw YttError{"\n" + e.text};
}

// A text template of the file set, evaluated in file order with the YAML templates (its
// text goes to output files only, which hintkit does not write).
std::string LibraryExecution::eval_text_file(const SourceFile& f) {
  (void)f.readable_text();
  // As for YAML templates: ytt panics on data values with a non-string map key.
  if (data_values_.value && has_non_string_key(*data_values_.value)) {
    throw Unsupported{"data values with a map key that is not a string in templates (ytt panics)"};
  }
  try {
    return eval_text_template(files_, f, thread_);
  } catch (const TemplateError& e) {
    if (library_mode()) throw;  // the caller nests the failure in its own
    if (e.compile) throw YttError{e.text};
    // ytt ends its error with a line break even when the text (a source line of text
    // ending in one) has its own.
    const bool own_break = !e.text.empty() && e.text.back() == '\n';
    throw YttError{"Evaluating text template: \n" + e.text + (own_break ? "\n" : "")};
  }
}

// ytt's checkUnusedDVsOrSchemas, once every template has run: documents addressed to a
// library that no library module took.
void LibraryExecution::check_library_documents_used() {
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
                 " documents to be used but found unused: " + comma_list(unused)};
}

// Whether input `i` is a file of this library: below its folder and not inside one of its
// private libraries.
bool LibraryExecution::own_file(size_t i) const {
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

// A source that is not a file (a flag's text), named `label` in messages. `whole`: the
// text is split into lines; else it is one line, whatever it holds.
SourceFile& LibraryExecution::pseudo(const std::string& label, const std::string& text,
                                     bool whole) {
  SourceFile f;
  f.path = "\x01" + std::to_string(pseudo_base_ + files_.files.size());
  f.label = label;
  f.lines = whole ? SourceLines(text) : SourceLines::one(text);
  files_.files.push_back(std::move(f));
  return files_.files.back();
}

// ytt's Document.IsEmpty: null, or a map or array without items.
bool doc_empty(const DDoc& d) {
  return !d.value || d.value->is_null() ||
         (!d.computed && !d.value->is_scalar() && d.value->entries.empty());
}

bool has_non_string_key(const DNode& v) {
  for (const auto& e : v.entries) {
    if (v.is_map() && e.key.kind != yaml::Kind::kString) return true;
    if (has_non_string_key(*e.value)) return true;
  }
  return false;
}

}  // namespace hintkit::ytt

// One library's run over its files (ytt's LibraryExecution and DataValuesPreProcessing): the
// phases the command, and library.get for private libraries, run in ytt's order.
#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_set>

#include "ytt/overlay/overlay.h"
#include "ytt/schema/schema.h"
#include "ytt/template/template.h"
#include "ytt/validations/validations.h"
#include "ytt/workspace/workspace.h"

namespace hintkit::schema {

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

}  // namespace


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

}  // namespace

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
// data.values is still empty); `stage` and `order` name the phase in errors.
std::vector<DDoc> LibraryExecution::docs_of(size_t i, const std::string& stage,
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
                     "': " + go_yaml_error(d, f.text(), true)};
    }
  }
}

// The schema documents, merged, as one type (null without schema documents).
void LibraryExecution::build_schema() {
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
        throw YttError{stage + "\n  Templating file '" + p + "':\n    Expected schema file '" + p +
                       "' to only have schema documents"};
      }
    }
    for (size_t k = 0; k < file_docs.size(); ++k) {
      DDoc& d = file_docs[k];
      if (!d.ann("data/values-schema")) continue;
      std::vector<LibraryRef> ref =
          with_context(stage + " ", [&] { return library_ref_of(d.anns); });
      const bool sole = last_file && k == last_schema_doc && docs.empty() && ref.empty();
      TypePtr t = with_context(stage, [&] {
        return sole ? infer_document(std::move(d), files_) : infer_document(d, files_);
      });
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
    }
  }
  for (auto& e : passed_schemas_) child_schemas_.push_back(e);
  for (auto& e : parent_schemas_) {
    types.push_back(with_context(stage, [&] { return infer_document(e->src.doc, files_); }));
    docs.push_back(e->src.doc);
  }
  if (docs.empty()) return;
  if (docs.size() == 1) {
    type_ = std::move(types[0]);
  } else {
    types.clear();
    with_context(stage, [&] {
      DDoc merged = docs[0];
      for (size_t k = 1; k < docs.size(); ++k) {
        overlay_document(merged.value, docs[k], thread_, files_, false, false, true, &merged.span);
      }
      type_ = infer_document(merged, files_);
    });
  }
  values_ = default_of(*type_);
  root_span_ = type_->declared;
}

// Final data values that still hold a map with a repeated key (a plain file's first
// document taken as it is, a YAML flag value put in place) make ytt panic when it turns them
// into Go data for output or templates.
void LibraryExecution::refuse_repeated_keys() const {
  if (repeated_keys_ && values_ && has_repeated_key(*values_)) {
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

// ytt's DataValuesPreProcessing: data values documents in file order, then the flags, each
// overlaid onto the result so far and type-checked.
void LibraryExecution::merge_values(std::vector<ValuesSource> flag_sources) {
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
        throw YttError{stage + "\n  Templating file '" + p + "':\n    Expected data values file '" +
                       p + "' to only have data values documents"};
      }
    }
    for (auto& d : docs) {
      check_placement(d);
      if (!d.ann("data/values")) continue;
      std::vector<LibraryRef> ref =
          with_context(stage + " ", [&] { return data_values_library_ref(d.anns); });
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
    with_context(stage, [&] {
      overlay_document(values_, src.doc, thread_, files_, src.missing_ok, src.plain, false,
                       &root_span_, /*release_right=*/true);
    });
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
void LibraryExecution::validate() {
  static const std::vector<Ann> kNoAnns;
  std::vector<Problem> problems;
  const std::string failures = with_context("Validating final data values:\n", [&] {
    return validate_values(values_, type_.get(), root_anns_ ? *root_anns_ : kNoAnns, root_span_,
                           thread_, files_, &problems);
  });
  if (!failures.empty()) {
    throw YttError{"Validating final data values:\n" + failures, 1, {}, std::move(problems)};
  }
}

// ytt's DocExtractor on a file as parsed: `@name` on documents only, once per document.
// True when some document carries it.
bool LibraryExecution::annotated_documents(const LoadedYaml& file, std::string_view text,
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
size_t LibraryExecution::written_annotations(std::string_view text, std::string_view name) {
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

void LibraryExecution::check_not_on_items(const yaml::Node& n, const std::string& name) {
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

void LibraryExecution::check_placement(const DDoc& d) {
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
std::string LibraryExecution::eval_text_file(const SourceFile& f) {
  (void)f.readable_text();
  // As for YAML templates: ytt panics on data values with a non-string map key.
  if (values_ && has_non_string_key(*values_)) {
    throw Unsupported{"data values with a map key that is not a string in templates (ytt panics)"};
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
                 " documents to be used but found unused: " + join(unused)};
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

}  // namespace hintkit::schema

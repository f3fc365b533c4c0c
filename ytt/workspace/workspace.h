// workspace: ytt's pkg/workspace, how files become a library's run. Start at
// `LibraryExecution` (library_execution.cpp): one library's run over its files, as named phases
// (schema: data_values_schema_pre_processing.cpp; data values: data_values_pre_processing.cpp;
// which documents carry which annotation: doc_extractor.cpp; then templates and overlays),
// which `@ytt:library` also starts for private libraries (library_module.cpp). Also here:
// template loading (`load()` of `@ytt:` modules, `.star` and `.lib.yml` files:
// template_loader.cpp), library references (`@library/ref`, `@lib~alias`: library_ref.cpp)
// and the YAML of the input files loaded ahead on a second thread (`YamlPreloader`:
// preload.cpp).
#pragma once

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "ytt/files/files.h"
#include "ytt/schema/schema.h"
#include "ytt/template/template.h"
#include "ytt/yamlmeta/yamlmeta.h"
#include "ytt/yamltemplate/yamltemplate.h"

namespace hintkit::ytt {

// `load(module)` from the file running innermost (Files::running): `@ytt:` modules, else a
// `.star` or `.lib.yml` file of the file set, found as ytt finds it (template_loader.cpp).
sl::Result<sl::Module> load_module(Files& files, sl::Thread& thread, std::string_view module);
// The rest of `load(module)` once its file is found: checks it is a library file, evaluates it
// (once per file) and returns its globals.
sl::Result<sl::Module> load_found(Files& files, sl::Thread& thread, const SourceFile& file,
                                  std::string_view module);

// ---- Library addressing (ytt's pkg/workspace/ref and datavalues envelopes) ------------------

// One step of a library reference: `@path`, `@~alias` or `@path~alias`.
struct LibraryRef {
  std::string path, alias;
};
// ytt's LibraryRefExtractor.FromStr: "@a@b~x" -> [{a}, {b, x}]. Throws YttError with ytt's text.
std::vector<LibraryRef> parse_library_ref(std::string_view text);
// The `@library/ref` of a document's annotations (empty without one). Throws YttError.
std::vector<LibraryRef> library_ref_of(const std::vector<Ann>& anns);
// "@a@b~x", as ytt describes the library a document is addressed to.
std::string library_ref_text(const std::vector<LibraryRef>& ref);
// ytt's parseDVLibAnnotations: the library a `@data/values` document is addressed to, with
// its `after_library_module=` keyword checked. Throws YttError.
std::vector<LibraryRef> data_values_library_ref(const std::vector<Ann>& anns);

// ---- Loading ahead -------------------------------------------------------------------------

// Internal: loads the YAML of the input files on a second thread, one file ahead of the
// pipeline, so that parsing the next file overlaps with templating and checking this one.
// Without that thread (one file, or little text after the first), a long file is read in two
// halves on two threads instead.
// The pipeline asks for files in the order it was given; it loads the first one itself, and
// any file the worker has not started yet. Look-ahead is one file, so at most two loaded but
// unevaluated trees exist at once.
class YamlPreloader {
 public:
  struct Input {
    size_t file_index;  // index in Files::files
    std::string path;
    std::string_view text;  // must stay valid while the preloader lives (SourceLines' heap text)
  };
  // `on_worker_done` (optional) runs on the calling thread once the last file is taken and
  // the worker thread has ended, and after each file that, with no worker running, was read
  // in two halves on two threads (yaml::load_split).
  // `strict`: files are read with ytt's strict YAML.
  // `min_bytes_ahead`: the worker starts only when the files after the first hold at least
  // this much text; below it, starting, running and ending a thread costs more than parsing
  // them on the calling thread (a 1 KB overlay file beside a large template).
  YamlPreloader(std::vector<Input> order, bool strict, std::function<void()> on_worker_done = {},
                size_t min_bytes_ahead = 0);
  ~YamlPreloader();  // stops the worker and waits for it
  YamlPreloader(const YamlPreloader&) = delete;
  YamlPreloader& operator=(const YamlPreloader&) = delete;

  // The loaded YAML of file `file_index`, nullopt when it is not in the order (or was taken).
  std::optional<LoadedYaml> take(size_t file_index);

 private:
  enum class State { kWaiting, kLoading, kReady, kTaken };
  struct Slot {
    Input input;
    State state = State::kWaiting;
    std::optional<LoadedYaml> loaded;
  };
  void work();
  void finish_worker();

  std::vector<Slot> slots_;
  size_t asked_ = 0;  // highest slot the pipeline has asked for
  bool stop_ = false;
  std::mutex mu_;
  std::condition_variable cv_;
  std::thread worker_;
  std::function<void()> on_worker_done_;
  bool strict_ = false;
};

// ---- Library execution (ytt's LibraryExecution, its pre-processing, LibraryModule) ---------

// A data values document on its way to be overlaid, with how it is overlaid.
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

// What a run gives its root library's execution beyond the files.
struct ExecutionSettings {
  // Budgets of the run's Starlark, every library's included (0: the interpreter's own).
  int64_t max_starlark_steps = 0;
  int max_starlark_call_depth = 0;
  // Runs once the thread that loads input files ahead has ended (Options::after_loading_thread).
  std::function<void()> after_loading_thread;
  // --dangerous-data-values-disable-validation: library.get hands it to every library.
  bool disable_validation = false;
};

// A library's own data values as pre-processing builds them (ytt's datavalues.Envelope of the
// library's values): the schema's defaults first, then each document overlaid.
struct DataValues {
  DPtr value;                              // null without a schema until a document gives one
  diag::Span span;                         // where ytt says the values document is
  const std::vector<Ann>* anns = nullptr;  // without a schema: the first document's own (rules)
  // The documents overlaid, kept while the values live (`anns` points into one; a run that
  // does not free at its end hands them on with the rest).
  std::vector<ValuesSource> docs;
};

// Templates input file `i` in a pre-processing phase (ytt's TemplateLoader.EvalYAML there,
// while data.values is still empty); `stage` ("Overlaying data values (in following order:
// ...)") heads its errors.
using PhaseTemplater = std::function<std::vector<DDoc>(size_t i, const std::string& stage)>;

// ytt's DataValuesSchemaPreProcessing (data_values_schema_pre_processing.cpp): a library's
// schema files templated in file order, each schema document typed on its own, then those of
// this library merged (with those its caller gave it, last) into one type.
struct DataValuesSchemaPreProcessing {
  Files& files;
  sl::Thread& thread;
  PhaseTemplater eval;
  const std::vector<size_t>& schema_files;          // input files with schema documents
  const std::vector<EnvelopePtr>& schema_overlays;  // the caller's (with_data_values_schema)

  // The merged type, null without schema documents. Schema documents addressed to a library
  // this one uses (`@library/ref`) are appended to `for_libraries` instead.
  TypePtr apply(std::vector<EnvelopePtr>& for_libraries) const;
};

// ytt's DataValuesPreProcessing (data_values_pre_processing.cpp): a library's data values
// files templated in file order, then `values_overlays` (the flags', the caller's), each
// document overlaid onto the values so far and type-checked against the schema.
struct DataValuesPreProcessing {
  Files& files;
  sl::Thread& thread;
  PhaseTemplater eval;
  const std::vector<size_t>& values_files;  // input files with data values documents
  std::vector<ValuesSource> values_overlays;
  const SType* schema = nullptr;  // null without a schema

  // Overlays every document onto `values` (the schema's defaults, or empty), which is a map
  // at the end. Documents addressed to a library this one uses are appended to
  // `for_libraries` instead.
  void apply(DataValues& values, std::vector<EnvelopePtr>& for_libraries);

 private:
  void overlay_and_check(DataValues& values, ValuesSource& src, const std::string& stage);
};

// ---- ytt's DocExtractor (doc_extractor.cpp) --------------------------------------------------

// On a file as parsed: `@name` on documents only, once per document. True when some document
// carries it. Throws YttError with ytt's text.
bool annotated_documents(const LoadedYaml& file, std::string_view text, const std::string& name);
// On a document as templated: `@data/values` and `@data/values-schema` on the document only,
// not on its items. Throws YttError.
void check_document_annotations(const DDoc& d);

// "a, b, c", as ytt lists files and documents in its messages.
std::string comma_list(const std::vector<std::string>& items);

class LibraryExecution;

// A library instance (ytt's libraryValue): which library, and what its caller gives it.
struct LibraryHandle {
  LibraryExecution* owner;  // the execution whose files asked for it
  std::string dir;          // its folder in the file set
  LibraryRef name;          // as library.get named it (path and alias)
  std::vector<EnvelopePtr> values, schemas;
  bool skip_validation = false;
  bool ignore_unknown_comments = false;  // the caller's, unless library.get overrides it
  bool strict = false;                   // likewise
  bool implicit_map_key_overrides = false;  // likewise
};
using HandlePtr = std::shared_ptr<const LibraryHandle>;

// `@ytt:library` for the files of one library execution (ytt's LibraryModule;
// library_module.cpp): library.get names a private library, and its value makes new instances
// (with_data_values, with_data_values_schema) or runs one as a child execution (eval, export,
// data_values). A friend of LibraryExecution: the phases it runs are the execution's own.
class LibraryModule {
 public:
  // The module the files of folder `folder` of `owner`'s library load.
  static sl::Value make(LibraryExecution& owner, const std::string& folder);

 private:
  static sl::Value value(HandlePtr h);
};

// One library's run over its files (ytt's LibraryExecution): the files are sorted into schema,
// data values and template files (`classify_files`), the schema documents merged into one type
// (`build_schema`, by DataValuesSchemaPreProcessing), the data values documents and flags
// overlaid onto its defaults and type-checked (`merge_values`, by DataValuesPreProcessing),
// validated (`validate`), then the templates evaluated and overlaid (`evaluate_documents`). The
// command runs the root library through these phases (ytt/cmd/engine.cpp); `@ytt:library`'s
// `library.get` (library_module.cpp) runs a child execution over a private library's folder the
// same way. library_execution.cpp holds the phases.
class LibraryExecution {
 public:
  // The root library: the run's files are added to `files()` by the command.
  explicit LibraryExecution(ExecutionSettings settings);
  // A library over the files of folder `dir`, with the documents its caller addressed to it
  // (`values`, `schemas`: taken here, or passed on to its own libraries).
  LibraryExecution(LibraryExecution& parent, std::string dir, std::vector<EnvelopePtr> values,
                   std::vector<EnvelopePtr> schemas, bool skip_validation);
  LibraryExecution(const LibraryExecution&) = delete;
  LibraryExecution& operator=(const LibraryExecution&) = delete;

  // ytt's filesByAnnotation: every YAML template is parsed (as plain YAML, not templated) in
  // file order; it is a schema file, or a data values file, when one of its documents carries
  // that annotation. A file that does not parse stops the run here, before any templating.
  void classify_files();
  // The schema documents, merged, as one type (null without schema documents).
  void build_schema();
  // ytt's DataValuesPreProcessing: data values documents in file order, then the flags, each
  // overlaid onto the result so far and type-checked.
  void merge_values(std::vector<ValuesSource> flag_sources);
  // ytt's validateValues: the schema's rules and the `@assert/validate` rules on the values.
  void validate();
  // Final data values holding a map with a repeated key make ytt panic: refused.
  void refuse_repeated_keys() const;
  // The data values are final: templates evaluated from now on read them.
  void publish_values() { files_.data_values = data_values_.value; }
  // Where ytt says the final values document is (`-o pos` of --data-values-inspect).
  const diag::Span& values_span() const { return data_values_.span; }
  // Template evaluation, then ytt's overlay post-processing, into `output()`. True when text
  // templates were met (their text is in `text_outputs()`, for output files only).
  bool evaluate_documents();

  // What the command reads and adds to.
  Files& files() { return files_; }
  // The files read so far are the inputs (the flags' files come after them).
  void inputs_read() { input_count_ = files_.files.size(); }
  // A source that is not a file (a flag's text), named `label` in messages. `whole`: the
  // text is split into lines; else it is one line, whatever it holds.
  SourceFile& pseudo(const std::string& label, const std::string& text, bool whole = false);
  // Some plain data values YAML repeats a map key (see `refuse_repeated_keys`).
  void note_repeated_keys() { repeated_keys_ = true; }
  // A data value flag's document addressed to a library.
  void add_flag_library_values(EnvelopePtr e) { flag_child_values_.push_back(std::move(e)); }
  const TypePtr& type() const { return type_; }
  const DPtr& values() const { return data_values_.value; }
  // The output documents, one set per template file, and the input file of each set.
  std::vector<std::vector<DDoc>>& output() { return output_; }
  const std::vector<size_t>& output_files_of_sets() const { return set_files_; }
  // Text templates' results (path, text), in evaluation order: the root library's only.
  std::vector<std::pair<std::string, std::string>>& text_outputs() { return text_outputs_; }
  // What print() and warnings wrote (the root's: libraries write there too).
  std::string& printed() { return err_; }
  // Joins the thread that loads YAML ahead (also after an early error).
  void stop_loading() { preloader_.reset(); }

 private:
  struct Export {
    std::string path;  // relative to the library's folder
    sl::Module globals;
  };

  sl::ThreadOptions make_thread_options(const ExecutionSettings& budgets);
  bool library_mode() const { return root_ != this; }
  bool own_file(size_t i) const;
  std::optional<LoadedYaml> take_loaded(size_t i);
  std::vector<DDoc> docs_of(size_t i, const std::string& stage);
  PhaseTemplater phase_templater();
  static void throw_syntax_error(const LoadedYaml& y, const SourceFile& f);
  static bool has_repeated_key(const DNode& n);
  std::vector<size_t> evaluation_order() const;
  std::optional<sl::Module> eval_library_file(const SourceFile& f);
  [[noreturn]] void throw_template_error(const TemplateError& e) const;
  std::string eval_text_file(const SourceFile& f);
  void check_library_documents_used();
  // Runs library `h` for `@ytt:library` (library_module.cpp).
  friend class LibraryModule;
  std::optional<sl::Error> run_library(const sl::Call& c, const LibraryHandle& h,
                                       const std::string& prefix,
                                       const std::function<void(LibraryExecution&)>& then);

  ExecutionSettings settings_;
  Files files_;
  sl::Thread thread_;
  std::string err_;
  std::map<size_t, LoadedYaml> loaded_;  // input YAML as classification parsed it, until templated
  std::vector<bool> not_for_output_;     // schema and data values files (by input index)
  std::optional<YttError> values_problem_;  // a misplaced @data/values, reported in its phase
  // The pipeline's trees live here, not on the stack, so that `run` can hand them to the
  // caller (Options::free_at_end) instead of freeing them.
  TypePtr type_;
  DataValues data_values_;
  std::vector<std::vector<DDoc>> output_;  // the output documents, one set per template file
  std::vector<size_t> set_files_;          // the input file of each set of output_
  // Text templates' results for output files (the root library's).
  std::vector<std::pair<std::string, std::string>> text_outputs_;
  // Documents addressed to the libraries this one uses, in ytt's order, and those its caller
  // addressed to it (`parent_*`: its own; `passed_*`: for its libraries).
  std::vector<EnvelopePtr> child_values_, child_schemas_, flag_child_values_;
  std::vector<EnvelopePtr> parent_values_, parent_schemas_, passed_values_, passed_schemas_;
  bool values_ready_ = false;      // child_values_ complete (library.get hands them on)
  bool skip_validation_ = false;   // library.get(dangerous_data_values_disable_validation=True)
  bool schema_crash_ = false;      // see run_library
  bool repeated_keys_ = false;     // some plain data values YAML repeats a map key
  LibraryExecution* root_ = this;  // the root library's execution (printing, refusals)
  std::vector<Export> exports_;    // a library's .star and .lib.yml files' globals
  std::vector<std::shared_ptr<LibraryExecution>> libraries_;  // executions whose values may live on
  std::vector<size_t> schema_files_, value_files_;  // input files by their documents' annotations
  std::unique_ptr<YamlPreloader> preloader_;
  size_t input_count_ = 0;  // files_.files beyond this come from flags
  // Pseudo files are named by a number unique in the run: a library's start past its caller's.
  size_t pseudo_base_ = 0;
};

// ytt's Document.IsEmpty: null, or a map or array without items.
bool doc_empty(const DDoc& d);
// ytt panics on these (its JSON encoder, and templates' data values, take string keys only).
bool has_non_string_key(const DNode& v);

}  // namespace hintkit::ytt

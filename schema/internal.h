// Internal model of the schema engine: the evaluated YAML tree (`DNode`), annotations with
// their evaluated Starlark arguments, and the error type that unwinds to `run()`.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "diag/diag.h"
#include "schema/schema.h"
#include "starlark/starlark.h"
#include "types/types.h"
#include "yaml/yaml.h"

namespace hintkit::schema {

namespace sl = hintkit::starlark;

// A failure that stops the run; `text` is everything after "Error: ".
struct YttError {
  std::string text;
  int exit_code = 1;  // 2: something hintkit does not do (the text names it and says to use ytt)
  // The error's own message as ytt's err.Error() gives it, before any layout, when an
  // enclosing error quotes it (a schema error under @schema/nullable); empty: `text`.
  std::string raw = {};
  // The same error cut into problems at their places (Outcome::problems), when it has parts.
  std::vector<Problem> problems = {};
};

// Something of ytt's that hintkit does not do (library modules, text templates, ...): the run
// stops with exit 2 and an error naming `feature`, never with output that differs from ytt's.
struct Unsupported {
  std::string feature;
};

// An evaluated `#@name args` annotation.
struct Ann {
  std::string name;
  std::vector<sl::Value> args;
  std::vector<std::pair<std::string, sl::Value>> kwargs;
  diag::Span span;
  const sl::Value* kwarg(std::string_view k) const {
    for (const auto& [n, v] : kwargs)
      if (n == k) return &v;
    return nullptr;
  }
};

// The value of a scalar node or map key: what the engine needs of a loaded `yaml::Node`
// (56 bytes against its 232: no tag, comments, span or children; the tree node has the span).
struct Scalar {
  yaml::Kind kind = yaml::Kind::kNull;
  yaml::Style style = yaml::Style::kPlain;
  bool bool_value = false;
  bool is_unsigned = false;  // as in yaml::Node
  bool from_code = false;    // a key made by Starlark code: Go holds its int as an int64
  int64_t int_value = 0;
  double float_value = 0.0;
  std::string text;  // kString: the decoded string; other kinds: the source text
};
Scalar scalar_of(const yaml::Node& n);
// Where an array item is, as ytt places it: the line of its `-` (which may stand above the
// element's first token).
diag::Span item_span(const yaml::Node& element);
Scalar string_scalar(std::string_view s);
yaml::Node to_yaml(const Scalar& s);

struct DNode;
using DPtr = std::shared_ptr<DNode>;

// A DPtr that costs one pointer while it is null (a map item's collection key is rare).
class SparseDPtr {
 public:
  SparseDPtr() = default;
  SparseDPtr(std::nullptr_t) {}  // NOLINT: implicit, as the DPtr it stands for
  SparseDPtr(DPtr p)             // NOLINT
      : p_(p ? std::make_unique<DPtr>(std::move(p)) : nullptr) {}
  SparseDPtr(const SparseDPtr& o) : SparseDPtr(o.get()) {}
  SparseDPtr(SparseDPtr&&) noexcept = default;
  SparseDPtr& operator=(const SparseDPtr& o) {
    if (this != &o) *this = SparseDPtr(o.get());
    return *this;
  }
  SparseDPtr& operator=(SparseDPtr&&) noexcept = default;

  explicit operator bool() const { return p_ != nullptr; }
  DNode& operator*() const { return **p_; }
  DNode* operator->() const { return p_->get(); }
  DPtr get() const { return p_ ? *p_ : nullptr; }

 private:
  std::unique_ptr<DPtr> p_;
};

// A map item or an array item.
struct DEntry {
  Scalar key;  // map items: a scalar key (for a collection key, its kind only)
  DPtr value;
  SparseDPtr key_node;  // map items keyed by a map or array (`{{ x }}: v` in a helmfile template)
  yaml::SparseVector<Ann> anns;  // most items have none
  diag::Span span;               // the item's line
};

// A value: a scalar (kind + fields of `scalar`), a map or an array.
// Field order keeps the node at 112 bytes, 128 with its shared_ptr count: the allocator's
// next size class up is 160, a quarter more for each of a large tree's many nodes.
struct DNode {
  yaml::Kind kind = yaml::Kind::kNull;
  // A map or array made from a Starlark dict, struct, list or tuple (not from YAML nodes):
  // ytt keeps such a value as Go data, so a fragment hands it back as a dict or list.
  bool from_code = false;
  // ytt shares a fragment's node wherever the fragment is put (`a: #@ x`, `b: #@ x`), so an
  // overlay that edits one place edits them all. Here such a node is shared too; `placed`:
  // put in a template node once; `aliased`: more than once (or also inside another fragment),
  // so overlays edit it in place as ytt does, where other shared nodes are copied first
  // (copy-on-write).
  bool placed = false;
  bool aliased = false;
  // Handed out as a fragment of its own by indexing a fragment (`x["b"]`): it is also inside
  // that fragment's tree, so placing it makes it `aliased`.
  bool viewed = false;
  Scalar scalar;  // scalars only
  std::vector<DEntry> entries;
  diag::Span span;

  bool is_map() const { return kind == yaml::Kind::kMap; }
  bool is_array() const { return kind == yaml::Kind::kArray; }
  bool is_scalar() const { return !is_map() && !is_array(); }
  bool is_null() const { return kind == yaml::Kind::kNull; }
  DEntry* find(std::string_view key);
};

struct DDoc {
  DPtr value;
  std::vector<Ann> anns;
  diag::Span span;
  std::string file;
  bool implicit = false;  // no `---` before it
  // The value was set from Starlark data (a dict or list, not YAML nodes): ytt never counts
  // such a document as empty.
  bool computed = false;
  const Ann* ann(std::string_view name) const;
};

const Ann* find_ann(const std::vector<Ann>& anns, std::string_view name);

// Trees are shared, copy-on-write: a subtree may hang under several parents (a type's default,
// a data values document and the merged values), so code that changes a node first makes its
// slot its own with `own()`, top-down from a slot it owns. Nothing else mutates shared nodes.
DPtr make_node(yaml::Kind kind, diag::Span span = {});
DPtr from_yaml(const yaml::Node& n);  // deep copy of a loaded node (annotations dropped)
// The same, consuming `n`: strings are moved and each collection's memory is released as soon
// as it is converted, so a large file's two trees never exist whole at the same time.
DPtr from_yaml(yaml::Node&& n);
Scalar take_scalar(yaml::Node&& n);
DPtr deep_copy(const DNode& n);
// A deep copy read back as YAML nodes (ytt's overlay results): nothing in it is `from_code`.
DPtr yaml_copy(const DNode& n);
// The same in place: nothing in the tree is `from_code` any more.
void make_yaml_nodes(DNode& root);
DPtr shallow_clone(const DNode& n);  // the node and its entries; children stay shared
DNode& own(DPtr& slot);              // clones `*slot` first when someone else holds it
// How a key is spelled for field lookups (`SType::field_index`): string keys as they are,
// other scalars tagged by kind (so `8080` and "8080" stay apart). `scratch` holds non-string
// spellings.
std::string_view checker_key(const Scalar& k, std::string& scratch);
yaml::Node to_yaml(const DNode& n);
// `yaml::emit_yaml(to_yaml(n))` without building the copy.
std::string emit_yaml(const DNode& n);
bool same_key(const Scalar& a, const Scalar& b);
std::string key_text(const Scalar& k);         // how ytt prints a key in messages
std::string go_key_text(const Scalar& k);      // `%s` of a key: %!s(int=8080) for ints
std::string_view ytt_type_name(yaml::Kind k);  // "integer", "string", "boolean", ...
std::string go_float(double d);  // strconv.FormatFloat(d, 'g', -1, 64): fmt's %v of a float64

// Starlark <-> tree.
// Where the nodes inside a built value point: nowhere (template values, as ytt's overlay sees
// them: "?") or at `span` too (schema annotations' defaults and examples).
enum class InnerSpan { kNone, kSame };
// Deeper nesting in a value that becomes YAML is runaway construction: ytt prints 20,000 levels,
// and each later stage (checks, overlays, output) recurses once per level on the engine's big
// stack (`diag::run_with_big_stack`), a few hundred bytes a level.
inline constexpr int kMaxValueDepth = 100'000;
// Nodes one Starlark value may become (as many as a list may hold items): lists repeating a
// shared list (`b = [a] * 1000`, `c = [b] * 1000`) make a billion from a few kilobytes, which
// would take the machine's memory before any other limit.
inline constexpr size_t kMaxConvertedNodes = size_t{4} << 20;
// The containers on the way from a value's root to the part being walked. Every walk that
// follows a Starlark value's containers (conversion to a tree, struct.encode/decode) goes
// through one: it names a cycle where it closes and stops nesting beyond `kMaxValueDepth` or
// the stack's reserve, so a value that contains itself is an error, never a crash.
class ValuePath {
 public:
  // Steps into `container`; false (with `error()` set) when that closes a cycle or nests too deep.
  bool enter(const sl::Value& container);
  void leave();
  // How the child about to be walked is reached from the innermost container: [0], ["k"], .f
  void at(std::string where) { path_.back().where = std::move(where); }
  const std::optional<std::string>& error() const { return error_; }
  // Stops the walk with `why` (the first reason stays).
  void stop(std::string why) {
    if (!error_) error_ = std::move(why);
  }

 private:
  struct Step {
    const void* container;
    std::string_view kind;
    std::string where;
  };
  std::string path_to(size_t depth) const;
  std::vector<Step> path_;
  std::unordered_set<const void*> on_path_;
  std::optional<std::string> error_;
};
// A Starlark value as a tree; an error names the cycle of a value that contains itself, or says
// it nests deeper than `kMaxValueDepth`. Native functions return that error to Starlark.
sl::Result<DPtr> convert_starlark(const sl::Value& v, const diag::Span& span,
                                  InnerSpan inner = InnerSpan::kNone);
// `convert_starlark` for a value put in a template's node (`a: #@ v`): a fragment, alone or
// inside lists and dicts, is put as itself, not a copy (as ytt does; a template function that
// nests its own results 30,000 deep took 38 s copying every level again), and marked
// `placed` (a second time: `aliased`).
sl::Result<DPtr> place_starlark(const sl::Value& v, const diag::Span& span);
// `convert_starlark` for engine code outside Starlark: its error is thrown as a `YttError`.
DPtr from_starlark(const sl::Value& v, const diag::Span& span, InnerSpan inner = InnerSpan::kNone);
// Why ytt cannot turn `v` into a YAML value (it panics: ranges, functions, builtins, ints
// beyond 64 bits, ... anywhere inside), or nullopt when it can.
std::optional<std::string> unconvertible_to_yaml(const sl::Value& v);
sl::Value to_starlark(const DPtr& n);  // maps/arrays become yamlfragment values
sl::Value to_struct_value(const DPtr& n);
sl::Value to_plain(const DPtr& n);   // maps become dicts, arrays lists (named rules)  //
                                     // data.values: maps become structs, arrays lists
sl::Value make_fragment(DPtr node);  // a yamlfragment over a map/array
sl::Value make_nil_fragment();       // what a fragment function that built nothing returns
// Go's %T of what ytt's AsGoValue makes of a Starlark value (fragments are YAML nodes).
std::string go_value_type(const sl::Value& v);
// The node behind a yamlfragment value, else null.
DPtr fragment_node(const sl::Value& v);
// A fragment of several documents (returned by a def whose body holds documents): an array
// node whose items are the documents (values and annotations).
bool is_docset(const sl::Value& v);
struct DDoc;
sl::Value make_docset_fragment(std::vector<DDoc> docs);
// The documents of a docset fragment, else null.
const std::vector<DDoc>* fragment_docs(const sl::Value& v);

// ---- Templates -----------------------------------------------------------------------------

// A file's lines for error excerpts: one copy of the text and where each line starts and
// ends (a vector of strings costs a heap block per long line of a large values file).
class SourceLines {
 public:
  SourceLines() = default;
  // Splits at '\n'; a last line without a newline counts when it is not empty.
  explicit SourceLines(std::string text);
  // Exactly one line, whatever it holds.
  static SourceLines one(std::string line);

  size_t size() const { return starts_.size(); }
  std::string_view operator[](size_t i) const {
    const size_t end = i + 1 < starts_.size() ? starts_[i + 1] - 1 : last_end_;
    return std::string_view(*text_).substr(starts_[i], end - starts_[i]);
  }
  // The whole text. It lives on the heap, so views of it stay valid when this moves.
  const std::string& text() const { return *text_; }

 private:
  std::shared_ptr<const std::string> text_ = std::make_shared<const std::string>();
  // Where each line starts in text_ (a line ends at the '\n' before the next one's start);
  // the last line ends at `last_end_`.
  std::vector<uint32_t> starts_;
  uint32_t last_end_ = 0;
};

// A file's kind by its extension, as ytt's files.File.Type() (a file mark may say otherwise).
enum class FileType { kYaml, kStarlark, kText, kUnknown };

struct SourceFile {
  std::string path;          // as given
  std::string label;         // how error excerpts name it; empty: the path
  SourceLines lines;         // the text, by lines for error excerpts
  bool in_file_set = false;  // an -f input (not a flag's value): load() and data.read see it
  // Set by `--file-mark PATH:type=...|for-output=true|exclusive-for-output=true` (ytt's
  // MarkType, MarkTemplate, MarkForOutput); unset, the name decides (file_set.h).
  std::optional<FileType> marked_type;
  std::optional<bool> marked_template;
  std::optional<bool> marked_for_output;
  const std::string& text() const { return lines.text(); }
};

class Files;

// Evaluates one YAML template file into documents. Throws YttError on failure with ytt's
// "Templating file" wording left to the caller (`error_text`).
struct TemplateError {
  std::string text;  // e.g. "- floored division by zero\n    in ..."
  // A template that does not compile: `text` is one line ("Compiling YAML template 'x': ...")
  // that the caller prefixes with its stage and prints through `multi_line_error`.
  bool compile = false;
  // The Starlark failure behind `text`, when there is one (a library's caller nests it).
  std::shared_ptr<sl::Error> error;
  // Words a library's caller puts before the nested `error` ("Evaluating starlark template: ").
  std::string head;
};

struct CompiledTemplate;  // template.cpp: a YAML template compiled to a Starlark program

struct Library;  // file_set.cpp: a folder of the file set as a library
// The library tree of a Files' file set (file_set.cpp), kept between lookups: `files` and
// `private_libraries` are how many of each it was built from or checked against.
struct LibraryTreeCache {
  std::shared_ptr<const Library> root;
  size_t files = 0;
  size_t private_libraries = 0;
};

// Everything the templates share: the input files, module cache, data.values.
class Files {
 public:
  // Marks `path` as running for the scope's lifetime (`running`, `running_data_values`).
  class Running {
   public:
    Running(Files& files, const std::string& path) : files_(files) {
      files_.running.push_back(path);
      files_.running_data_values.emplace_back();
    }
    ~Running() {
      files_.running.pop_back();
      files_.running_data_values.pop_back();
    }
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;

   private:
    Files& files_;
  };

  std::vector<SourceFile> files;
  // Folders of the file set named `_ytt_lib` (their files are left out): load() and
  // data.list meet them as private libraries.
  std::vector<std::string> private_libraries;
  // The folder of the library these files are evaluated for ("" for the root; else e.g.
  // "_ytt_lib/name"): paths starting with '/' are found from there.
  std::string library_root;
  // `@ytt:library` for a file in `folder` (set by the engine running this library).
  std::function<sl::Value(const std::string& folder)> library_module;
  // load(), data.read() and data.list() find files through this.
  mutable LibraryTreeCache library_tree_cache;
  // A library's Files hold only the files of its folder; `find` and `line` (error excerpts)
  // look for other files, such as those of the caller's data values, in its caller's Files,
  // which outlive it.
  const Files* caller = nullptr;
  // How far `files` were searched for the text "assert/validate" (mentions_assert_validate):
  // each file is searched once per Files, not once per validation.
  struct TextScan {
    size_t checked = 0;
    bool found = false;
  };
  mutable TextScan assert_validate_scan;
  const SourceFile* find(std::string_view path) const;
  std::string line(std::string_view path, int line) const;
  // Set once data values are final (templates rendered afterwards can read them). As ytt's
  // NewDataModule does for each file it evaluates, every evaluation reads them as its own
  // Starlark value (`running_data_values`): freezing one module's globals, or appending to a
  // list in one, does not reach another.
  DPtr data_values;
  // The globals of each file's latest evaluation (how an evaluation hands its module to load();
  // not a cache: ytt evaluates a library file on every load).
  std::map<std::string, sl::Module> module_cache;
  std::map<std::string, sl::Program> star_programs;  // .star files compiled so far, by name
  int gutter_digits = 1;  // widest line number in the error being printed
  // Templates compiled so far, libraries' included (ytt numbers its instruction sets with one
  // process-wide counter): shared with the Files of every library evaluated.
  std::shared_ptr<int> templates_evaluated = std::make_shared<int>(0);
  // The files whose top level is running, innermost last: `load()` resolves paths from the
  // folder of the last one (load statements run only at a file's top level).
  std::vector<std::string> running;
  // data.values of each running evaluation (parallel to `running`), made on its first
  // `load("@ytt:data", ...)`: loads of the module within one evaluation share it.
  std::vector<std::optional<sl::Value>> running_data_values;
  // Set by a Starlark builtin that met an unsupported feature; its error then becomes
  // Unsupported (a builtin cannot throw through the interpreter).
  std::string unsupported;
  // Compiled templates by file name: errors show the generated line's source (or the line
  // itself, marked "(generated)").
  std::map<std::string, std::shared_ptr<const CompiledTemplate>> compiled;
  // `template.replace` of each YAML template by file name: as in ytt, the function a file
  // loads acts on that file's evaluation contexts (template.cpp).
  std::map<std::string, sl::Value> template_replace;
  // --ignore-unknown-comments: templates skip plain `#` comments instead of rejecting them.
  bool ignore_unknown_comments = false;
  // --strict (or library.get(strict=...)): YAML files are read with ytt's strict YAML.
  bool strict_yaml = false;
  // Writes a warning to standard error, in order with print() output (set by the engine).
  std::function<void(const std::string&)> warn;
  bool math_warned = false;  // @ytt:math warns once per run
};

// A template file's YAML as loaded, before templating; its problems are reported (as ytt
// reports them) when the file is evaluated.
struct LoadedYaml {
  std::string path;
  std::vector<yaml::Document> docs;
  diag::Diagnostics diags;
  bool has_marker = true;  // the text holds "#@" somewhere (else no node can be templated)
  // The text holds a '#' that is neither "#@" nor "#!" (else no node has a plain comment).
  bool has_plain_hash = true;
  // Some map key is a map or array (`? [a]`, `{a: 1}: b`): templating such a file crashes
  // ytt, and a plain file's array key ytt prints with its array items' Go fields; both are
  // refused. Found before `roots` takes the trees.
  bool has_collection_key = false;
  bool has_array_key = false;
  // Document roots already converted to engine nodes (by index of `docs`; null where not).
  // A file whose only annotations are argument-less data annotations on its documents is
  // plain YAML below them (a large data values file): it is converted where it was loaded,
  // so its YAML tree is gone before the schema is built. Such a root keeps its kind and span
  // but not its children.
  std::vector<DPtr> roots;
};
// Whether some map key in `n` holds an array (`? [a]`, `{[a]: b}`, `{a: [1]}: b`): ytt writes
// such a key with its array items' Go fields (`- value: a` / `line: 1`), so it is refused.
bool has_array_in_key(const yaml::Node& n);
// Loads one file's YAML. Touches nothing shared, so it may run on another thread.
// How ytt's YAML reader (its fork of go-yaml v2) reads every file, fragment and value;
// `strict`: ytt's strict YAML (yaml::LoadOptions::strict).
yaml::LoadOptions ytt_yaml_options(bool strict = false);

// `split`: a long stream may be read in two halves on two threads (yaml::load_split), for a
// caller with no other thread at work; `after_split` runs once the second half is back.
LoadedYaml load_yaml(std::string path, std::string_view text, bool strict = false,
                     bool split = false, const std::function<void()>& after_split = {});
// ytt's HasTemplating: some `#@` comment in the file (else ytt takes it as plain YAML).
bool is_templated(const LoadedYaml& y);

// Evaluates `file` as a ytt template (from `loaded` when its YAML was loaded ahead of time).
// On a YAML or Starlark failure throws TemplateError.
std::vector<DDoc> eval_template(Files& files, const SourceFile& file, sl::Thread& thread,
                                std::optional<LoadedYaml> loaded = std::nullopt);
// Evaluates `file` as a ytt text template (ytt's texttemplate: `(@ code @)`, `(@= expr @)`,
// `-` trimming) and returns its text; its globals are kept for load(). Throws TemplateError:
// `compile` set for a template that does not parse ("Parsing text template 'x': ...").
std::string eval_text_template(Files& files, const SourceFile& file, sl::Thread& thread);
// `load(module)` from the file running innermost (Files::running): `@ytt:` modules, else a
// `.star` or `.lib.yml` file of the file set, found as ytt finds it (loading.cpp).
sl::Result<sl::Module> load_module(Files& files, sl::Thread& thread, std::string_view module);
// The rest of `load(module)` once its file is found: checks it is a library file, evaluates it
// (once per file) and returns its globals.
sl::Result<sl::Module> load_found(Files& files, sl::Thread& thread, const SourceFile& file,
                                  std::string_view module);
// Text of a Starlark error as ytt prints it under "Templating file".
std::string starlark_error_text(const Files& files, const sl::Error& e);

// @ytt:* modules.
// `name` without its "@ytt:" prefix; `folder`: where the loading file is (data.read looks
// there). nullopt: ytt has no such module.
std::optional<sl::Module> ytt_module(Files& files, std::string_view name,
                                     const std::string& folder);

// ---- Schema --------------------------------------------------------------------------------

struct Rule;  // validate.cpp

// `@schema/title|desc|deprecated|examples` of a type. Most types have none, so a type holds
// these out of line (a large schema has tens of thousands of types).
struct TypeDocs {
  std::optional<std::string> title, desc;
  std::optional<std::string> deprecated;
  std::vector<std::pair<std::string, DPtr>> examples;
};

// A ytt schema type (one per schema node), built by infer.cpp: the shared checker's
// `types::Type` (kind, nullable, fields, item, where it was declared), so data values are
// checked by `types::check_each`, plus what only the engine needs. Its fields' and item's
// types are `SType`s too: `of()` reaches them. `any=True` is kind kAny; a map's fields are
// keyed by their `checker_key` spelling, with each key as written in `key(i)`.
struct SType : types::Type {
  SType() { origin = this; }
  SType(const SType&) = delete;  // `origin` points at this object
  SType& operator=(const SType&) = delete;

  // kMap: each field's key as the schema writes it, kept only when some key is not what
  // `string_scalar(fields[i].key)` makes (a quoted, non-string or code-made key); a schema's
  // keys are mostly plain strings, spelled once in `fields`. Read them with `key(i)`.
  yaml::SparseVector<Scalar> keys;
  DPtr default_value;                   // the default (null for nullable)
  yaml::SparseVector<Ann> validations;  // its @schema/validation (most types have none)
  std::unique_ptr<TypeDocs> docs;       // null when the schema documents nothing

  bool any() const { return kind == types::Kind::kAny; }  // @schema/type any=True
  // The SType behind a type of a schema's tree (a field's or item's type).
  static const SType& of(const types::Type& t) { return *static_cast<const SType*>(t.origin); }
  const SType& field_type(size_t i) const { return of(fields[i].type()); }
  const SType* item_type() const { return item ? &of(*item) : nullptr; }
  Scalar key(size_t i) const { return keys.empty() ? string_scalar(fields[i].key) : keys[i]; }
  // Position of `key` in `fields` (keys compare by `checker_key`), or -1.
  using types::Type::field_index;
  long field_index(const Scalar& key) const;
  const SType* field(const Scalar& key) const;
  void add_field(Scalar key, std::shared_ptr<const SType> type);
  TypeDocs& edit_docs() {
    if (!docs) docs = std::make_unique<TypeDocs>();
    return *docs;
  }
};
using TypePtr = std::shared_ptr<SType>;

// Builds the type of a (merged) schema document. Throws YttError.
TypePtr infer_document(const DDoc& doc, const Files& files);
// The same for a document no one reads afterwards: its map nodes that nothing else holds
// become the type's defaults in place (values replaced by defaults, annotations dropped)
// instead of being copied, so a large schema's tree is not held twice. `doc` is left holding
// the default value.
TypePtr infer_document(DDoc&& doc, const Files& files);
// A fresh copy of a type's default value.
DPtr default_of(const SType& t);
// A type mismatch in data values as ytt words it (found / expected / by, and a hint).
struct TypeProblem {
  diag::Span at;
  std::string file_label;  // "values.yaml" / "(data-value arg)"
  bool unknown_key = false;
  std::string found, expected;
  diag::Span by;
  std::string hint;
};
// Checks `value` against `type` with the shared checker in ytt's two passes
// (`types::check_each`, `types::Order::kShapesFirst`), appending each mismatch to `problems`
// as ytt words and places it; only when there is none, fills defaults into `value` in place
// (missing map keys appended, array items filled). `doc`: where the document holding `value`
// is (a mismatch of the whole value is reported there); by default the value's own place.
void check_and_fill(DPtr& value, const SType& type, std::vector<TypeProblem>& problems,
                    const diag::Span* doc = nullptr);

// ---- Overlays ------------------------------------------------------------------------------

// One engine (overlay.cpp, ytt's pkg/yttlibrary/overlay) for data values, schema documents,
// document overlays on template output and `overlay.apply`.

// How data values documents differ from ytt's plain overlay.
struct OverlayMode {
  bool plain = false;              // --data-values-file: arrays and values of another kind replace
  bool carry_validations = false;  // merged items take the right item's validation rules
  // The caller lets go of the right document: its nodes that only it holds are released as
  // soon as they are merged (see Op::apply), so it and the result are not held whole at once.
  bool release_right = false;
};

// An overlay failure: ytt's flat message ("Overlaying (in following order: b.yml): Document on
// line b.yml:3: Expected ..."), laid out for printing by `multi_line_error`.
struct OverlayError {
  std::string message;
  bool unsupported = false;  // a case hintkit refuses (exit 2) rather than answer differently
};

// Overlays `right` (an annotated doc) onto `left` in place. Throws YttError with ytt's text.
// `left_span`: where the left document is (named by match errors; replaced when an operation
// on the document puts another in its place). `release_right`: OverlayMode::release_right
// (the caller reads `right` no more).
void overlay_document(DPtr& left, const DDoc& right, sl::Thread& thread, const Files& files,
                      bool default_missing_ok = false, bool plain = false,
                      bool schema_merge = false, diag::Span* left_span = nullptr,
                      bool release_right = false);

// ytt's overlay post-processing: applies `overlays` (documents annotated `@overlay/match`, in
// file order; `overlay_files` names their files) to the documents of `sets` (one set per
// template file). Throws OverlayError.
void overlay_output(std::vector<std::vector<DDoc>>& sets, const std::vector<DDoc>& overlays,
                    const std::vector<std::string>& overlay_files, sl::Thread& thread,
                    const Files& files);

// The `overlay` struct of `@ytt:overlay`.
sl::Value overlay_module(const Files& files);

// go-cli-ui's MultiLineError: the first line of `text` broken after each ": " that starts a
// capitalised clause (outside brackets), each piece indented one step further.
std::string multi_line_error(std::string_view text);

// ---- Library addressing (ytt's pkg/workspace/ref and datavalues envelopes) ------------------

// Go's %T of a Starlark value as ytt's errors print it ("starlark.Int", "*starlark.List").
std::string starlark_type(const sl::Value& v);

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

// ---- Errors --------------------------------------------------------------------------------

// "schema.yaml:\n    |\n  4 | line\n    |\n" excerpt of the given lines.
std::string excerpt(const Files& files, const std::string& label, const std::string& file,
                    const std::vector<int>& lines);
std::string pos_text(const diag::Span& s);  // "schema.yaml:4"

}  // namespace hintkit::schema

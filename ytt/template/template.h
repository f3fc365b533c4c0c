// template: ytt's pkg/template, yamltemplate and texttemplate. A YAML template's `#@` lines
// and `key: #@ expr` values compile to one Starlark program whose run builds the documents
// (`eval_template`); a text template's `(@ code @)` and `(@= expr @)` compile the same way
// (`eval_text_template`). Start at `eval_template` in template.cpp. starlark_value.cpp holds
// what crosses between Starlark and the tree: conversions both ways, the `yamlfragment` value
// ytt hands to code, Go's type names of Starlark values and the hints of values with no YAML form.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ytt/files/files.h"
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::schema {

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

// Go's %T of a Starlark value, as ytt's messages print it ("starlark.Int", "*starlark.Dict").
std::string go_type_name(const sl::Value& v);
// A value of a ytt module type ("url.value", "ip.addr", ...): `fields` are its attributes and
// methods; `type()` says "@ytt:<type>". Such values have no YAML or JSON form.
sl::Value make_module_value(std::string type,
                            std::vector<std::pair<std::string, sl::Value>> fields);
// ytt's conversion hint when `v` is or holds a module value ("@ytt:url.value does not
// automatically encode (hint: use .string())"), else nullopt.
std::optional<std::string> conversion_hint(const sl::Value& v, int depth = 0);
// The hint of `v` itself (not of what it holds): what ytt's AsGoValue stops at when its walk
// reaches `v`.
std::optional<std::string> own_conversion_hint(const sl::Value& v);
// An assertion object of @ytt:assert (what assert.min(...) etc. return).
bool is_assertion(const sl::Value& v);

// Evaluates one YAML template file into documents. Throws YttError on failure with ytt's
// "Templating file" wording left to the caller (`error_text`).
struct TemplateError {
  std::string text;  // e.g. "- floored division by zero\n    in ..."
  // A template that does not compile: `text` is one line ("Compiling YAML template 'x': ...")
  // that the caller prefixes with its stage and prints through `multi_line_error`.
  bool compile = false;
  // The Starlark failure behind `text`, when there is one (a library's caller nests it).
  std::shared_ptr<sl::Error> error = nullptr;
  // Words a library's caller puts before the nested `error` ("Evaluating starlark template: ").
  std::string head = {};
};

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
// Text of a Starlark error as ytt prints it under "Templating file".
std::string starlark_error_text(const Files& files, const sl::Error& e);

}  // namespace hintkit::schema

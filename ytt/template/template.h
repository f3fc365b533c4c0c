// template: ytt's pkg/template (and its core). A template, YAML (ytt/yamltemplate) or text
// (ytt/texttemplate), compiles to a `CompiledTemplate`: one Starlark program whose generated
// calls (`start_node(tag)`, `set_node(tag, value)`, ...) build the tree of nodes the compiler
// tagged. Start at `run_compiled` (evaluation_ctx.cpp: ytt's EvaluationCtx, which runs those
// calls for both dialects); compiled_template.cpp holds the program's text and ytt's error
// text with the template's lines. starlark_value.cpp holds what crosses between Starlark and
// the tree: conversions both ways, the `yamlfragment` value ytt hands to code, Go's type names
// of Starlark values and the hints of values with no YAML form.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ytt/files/files.h"
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

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

// yamlmeta.TypeName of what ytt's AsGoValue makes of `v` ("map", "integer", "null", else Go's
// %T of it, as `go_value_type` says).
std::string yaml_type_name(const sl::Value& v);

// A template that failed: to compile, or in its program. The caller words the stage ("Templating
// file") around it.
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

// ---- Compiled templates (ytt's CompiledTemplate, NodeTag, instructions) ---------------------
//
// Every node of a template (document set, document, map, map item, array, array item; a text
// root and its text pieces) gets a tag and a `start_node(tag)` instruction; a scalar becomes
// `set_node(tag)`; a node's `#@ expr` becomes `set_node(tag, (expr))`; `#@name args`
// annotations become `start_node_annotation(...)`; code lines are copied. Each generated line
// remembers the source line it came from (none for purely generated lines), so errors print
// as ytt prints them.

enum class NodeKind : uint8_t {
  kDocSet,
  kDoc,
  kMap,
  kMapItem,
  kArray,
  kArrayItem,
  kTextRoot,
  kText
};

// The parent tag of a root node.
inline constexpr int kRootTag = -100;

// `#@comment text`: documentation, dropped like `#!` comments (ytt's AnnotationComment).
inline constexpr std::string_view kCommentAnnotation = "comment";

// What `start_node(tag)` copies: the source node without its children.
struct TplNode {
  NodeKind kind;
  int parent;  // tag, or kRootTag
  int depth;   // parents up to the root tag
  int line;    // 0: unknown position
  diag::Span span;
  Scalar key;         // kMapItem
  DPtr key_node;      // kMapItem with a collection key
  DPtr scalar;        // kDoc/kMapItem/kArrayItem holding a scalar: that value
  std::string text;   // kText
  bool implicit_doc;  // kDoc without `---`
};

struct CodeLine {
  CodeLine(std::string code_text, int src_line = 0) : code(std::move(code_text)), src(src_line) {}
  std::string code;
  int src = 0;  // source line, 0 when generated
  // text templates: the piece of the line an error points at
  int sel_line = 0;
  std::string sel_text;
  bool has_sel = false;
};

struct CompiledTemplate {
  std::string file;
  int number = 2;              // names the instructions: ytt numbers each template it compiles
  std::vector<TplNode> nodes;  // tag - 1
  std::vector<CodeLine> code;
  SourceLines lines;
  std::map<std::pair<int, std::string>, diag::Span> ann_spans;  // (tag, name) -> comment

  // An instruction's name in this template's program ("__ytt_tpl2_start_node").
  std::string op(std::string_view name) const {
    return "__ytt_tpl" + std::to_string(number) + "_" + std::string(name);
  }
  std::string src_text(int line) const {
    return has_line(line) ? std::string(lines[static_cast<size_t>(line - 1)]) : std::string();
  }
  bool has_line(int line) const { return line >= 1 && static_cast<size_t>(line) <= lines.size(); }
  // Adds a node (its depth follows from its parent's) and returns its tag.
  int add_node(TplNode n);
  // A generated line that stands for source line `src` (none when the file has no such line).
  CodeLine code_line(std::string code_text, int src) const {
    return CodeLine(std::move(code_text), has_line(src) ? src : 0);
  }
  // ytt's CodeAsString: lines left-trimmed unless the previous one ends with a backslash.
  std::string code_text() const;
  // The program beside the source, as ytt's debug output shows it (HINTKIT_DEBUG_TEMPLATE).
  std::string debug_text() const;
};

// A template that does not compile: the compiler's message, which the dialect words
// ("Compiling YAML template '<file>': <message>").
struct CompileProblem {
  std::string message;
};

// What a template's program built: a YAML template's documents, or a text template's text.
struct TemplateOutput {
  std::vector<DDoc> docs;
  std::string text;
};
// Runs `compiled` as `file`'s program (ytt's CompiledTemplate.Eval); its globals become the
// module that load() of the file gives. On a Starlark failure throws TemplateError.
TemplateOutput run_compiled(Files& files, const SourceFile& file, sl::Thread& thread,
                            std::shared_ptr<CompiledTemplate> compiled);

// Text of a Starlark error as ytt prints it under "Templating file".
std::string starlark_error_text(const Files& files, const sl::Error& e);

}  // namespace hintkit::ytt

// Go's text/template grammar, parse only: the lexer and parser of Go's text/template/parse
// (Go 1.19) ported to C++, producing the same tree of nodes with byte offsets. Nothing here
// executes a template; the tree is for the checker (tmplcheck/) and tazuna.yaml's renderer
// (resolver/template.cpp).
//
// Where to start: `parse(text, name, options)` returns a `TreeSet` (the main tree under `name`,
// and one tree per `{{define}}` / `{{block}}`) or a `ParseError` with Go's message and the
// place it names (Go reports the first error only, and so does this parser). `to_string(node)`
// prints a node back in Go's `Node.String()` form, which the grammar tests compare.
//
// The whole grammar: text, comments `{{/* */}}`, trim markers `{{- -}}`, actions and pipelines,
// declarations `$x := p` and assignments `$x = p` (two in `range`), variables, fields and
// chains (`.a.b`, `$x.a`, `(p).f`), identifiers (function names, checked against
// `Options::is_function` unless it is empty, as Go's SkipFuncCheck), raw and interpreted
// strings, character constants, numbers (Go's integer, float, imaginary and complex
// literals), `nil`, `true`, `false`, `if`/`else if`/`else`, `with`/`else with`/`else`,
// `range`/`else`, `break`, `continue`, `define`, `template`, `block`. Custom delimiters are not
// supported (hintkit's templates never set them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <memory_resource>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diag.h"

namespace hintkit::gotmpl {

// Nesting of parentheses and control structures. Go has no limit (its parser recurses until
// the goroutine stack is exhausted); real templates nest a handful of levels, and deeper input
// would exhaust this parser's native stack. Past it: "max nesting depth exceeded".
inline constexpr int kMaxNesting = 500;

enum class NodeType {
  kText,
  kAction,
  kBool,
  kChain,
  kCommand,
  kDot,
  kField,
  kIdentifier,
  kIf,
  kList,
  kNil,
  kNumber,
  kPipe,
  kRange,
  kString,
  kTemplate,
  kVariable,
  kWith,
  kComment,
  kBreak,
  kContinue,
};
std::string_view to_string(NodeType t);

// Every node records the byte offset of its first character in the parsed text.
//
// Nodes, their lists and their strings live in their TreeSet's arena and go with it at once:
// a helmfile's tree is hundreds of small nodes, and allocating and freeing each of them was a
// fifth of the template check's time. So nodes are never deleted one by one (no destructor
// runs), they hold only views and arena lists, and pointers to them are plain pointers,
// valid while the TreeSet lives.
struct Node {
  explicit Node(NodeType t, size_t p) : type(t), pos(p) {}
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  NodeType type;
  size_t pos;
};
using NodePtr = Node*;
template <typename T>
using NodeList = std::pmr::vector<T>;
using Arena = std::pmr::memory_resource;

// Strings are views: of the TreeSet's own text (a string literal's text too, when unquoting
// leaves it as written), or (any other unquoted string, a template name) of the arena.
struct TextNode : Node {
  TextNode(size_t p, std::string_view t) : Node(NodeType::kText, p), text(t) {}
  std::string_view text;
};

struct CommentNode : Node {
  CommentNode(size_t p, std::string_view t) : Node(NodeType::kComment, p), text(t) {}
  std::string_view text;  // with its /* */
};

struct ListNode : Node {
  ListNode(size_t p, Arena* a) : Node(NodeType::kList, p), nodes(a) {}
  NodeList<NodePtr> nodes;
};

// `$x`, `$x.a.b`, `$`: ident[0] is the variable, the rest are fields; ident_pos has the byte
// offset of each part (a field's offset is that of its dot).
struct VariableNode : Node {
  VariableNode(size_t p, Arena* a) : Node(NodeType::kVariable, p), ident(a), ident_pos(a) {}
  NodeList<std::string_view> ident;
  NodeList<size_t> ident_pos;
};

// `.a.b`: ident is {"a", "b"}, ident_pos the offset of each part's dot.
struct FieldNode : Node {
  FieldNode(size_t p, Arena* a) : Node(NodeType::kField, p), ident(a), ident_pos(a) {}
  NodeList<std::string_view> ident;
  NodeList<size_t> ident_pos;
};

struct CommandNode : Node {
  CommandNode(size_t p, Arena* a) : Node(NodeType::kCommand, p), args(a) {}
  NodeList<NodePtr> args;  // the first is the function or the value
};

// A pipeline: optional declarations, then commands joined by `|`.
struct PipeNode : Node {
  PipeNode(size_t p, Arena* a) : Node(NodeType::kPipe, p), decl(a), cmds(a) {}
  bool is_assign = false;  // `=` rather than `:=`
  NodeList<VariableNode*> decl;
  NodeList<CommandNode*> cmds;
};

struct ActionNode : Node {
  ActionNode(size_t p, PipeNode* pi) : Node(NodeType::kAction, p), pipe(pi) {}
  PipeNode* pipe;
};

struct IdentifierNode : Node {
  IdentifierNode(size_t p, std::string_view n) : Node(NodeType::kIdentifier, p), ident(n) {}
  std::string_view ident;
};

// A term followed by fields: `(pipe).a.b`. Fields after a field or a variable extend those
// nodes instead, as Go does.
struct ChainNode : Node {
  ChainNode(size_t p, NodePtr n, Arena* a)
      : Node(NodeType::kChain, p), node(n), field(a), field_pos(a) {}
  NodePtr node;
  NodeList<std::string_view> field;
  NodeList<size_t> field_pos;
};

struct DotNode : Node {
  explicit DotNode(size_t p) : Node(NodeType::kDot, p) {}
};
struct NilNode : Node {
  explicit NilNode(size_t p) : Node(NodeType::kNil, p) {}
};
struct BoolNode : Node {
  BoolNode(size_t p, bool v) : Node(NodeType::kBool, p), value(v) {}
  bool value;
};

// As Go's NumberNode: which kinds the literal can be, and its value in each.
struct NumberNode : Node {
  NumberNode(size_t p, std::string_view t) : Node(NodeType::kNumber, p), text(t) {}
  bool is_int = false, is_uint = false, is_float = false, is_complex = false;
  int64_t int64 = 0;
  uint64_t uint64 = 0;
  double float64 = 0;
  double real = 0, imag = 0;  // is_complex
  std::string_view text;
};

struct StringNode : Node {
  StringNode(size_t p, std::string_view q, std::string_view t)
      : Node(NodeType::kString, p), quoted(q), text(t) {}
  std::string_view quoted;  // as written
  std::string_view text;    // unquoted
};

// `if`, `range` and `with` share this shape (Go's BranchNode). `else if` / `else with` are an
// else list holding one nested node, as Go parses them.
struct BranchNode : Node {
  BranchNode(NodeType t, size_t p) : Node(t, p) {}
  PipeNode* pipe = nullptr;
  ListNode* list = nullptr;
  ListNode* else_list = nullptr;  // null when there is no else
};

struct TemplateNode : Node {
  TemplateNode(size_t p, std::string_view n, PipeNode* pi)
      : Node(NodeType::kTemplate, p), name(n), pipe(pi) {}
  std::string_view name;
  PipeNode* pipe;  // null: `{{template "x"}}` (dot is nil there)
};

struct BreakNode : Node {
  explicit BreakNode(size_t p) : Node(NodeType::kBreak, p) {}
};
struct ContinueNode : Node {
  explicit ContinueNode(size_t p) : Node(NodeType::kContinue, p) {}
};

// One named template.
struct Tree {
  std::string name;
  ListNode* root = nullptr;
  size_t pos = 0;  // the define's / block's name, 0 for the main tree
};

// The parsed text: every tree by name, and how offsets map to lines and columns.
class TreeSet {
 public:
  TreeSet();
  TreeSet(TreeSet&&) noexcept;
  TreeSet& operator=(TreeSet&&) noexcept;
  ~TreeSet();

  std::map<std::string, Tree, std::less<>> trees;
  std::string main;  // the main tree's name

  // 1-based line and column (counted in code points) of a byte offset of the text. The line
  // table is made on the first call (most texts never need one): not for concurrent callers.
  diag::Position position(size_t offset) const;
  std::string_view text() const { return text_ ? std::string_view(*text_) : std::string_view(); }

  // Internal, set by parse(): the text, and the arena the nodes are made in.
  void set_text(std::string text);
  Arena* arena() const;
  // Bump allocation, inline: a helmfile's tree is a few hundred nodes.
  void* take(size_t bytes, size_t align) const {
    if (void* p = bump_->take(bytes, align)) return p;
    return take_new_block(bytes, align);
  }

  // The free part of the arena's current block.
  struct Bump {
    uintptr_t cur = 0;
    uintptr_t end = 0;
    void* take(size_t bytes, size_t align) {  // null when it does not fit
      const uintptr_t p = (cur + align - 1) & ~(uintptr_t{align} - 1);
      if (p + bytes > end || p < cur) return nullptr;
      cur = p + bytes;
      return reinterpret_cast<void*>(p);
    }
  };

 private:
  void* take_new_block(size_t bytes, size_t align) const;
  class NodeArena;
  // Both stay put when the set is moved: the nodes point into them.
  std::unique_ptr<std::string> text_;
  std::unique_ptr<NodeArena> arena_;
  Bump* bump_ = nullptr;                     // the arena's own
  mutable std::vector<size_t> line_starts_;  // empty until position() needs it
};

struct ParseError {
  std::string message;  // Go's text after "template: NAME:LINE: "
  size_t offset = 0;    // where the parser stood (the current token)
  diag::Position at;
  // The text nests deeper than kMaxNesting: a limit of this parser, not an error Go reports.
  bool nesting_limit = false;
};

struct Options {
  // Which identifiers are functions (builtins included: see is_builtin). Empty: any identifier
  // is accepted, as Go's SkipFuncCheck mode.
  std::function<bool(std::string_view)> is_function;
  // Keep comments as CommentNodes (Go's ParseComments mode); otherwise they are dropped.
  bool keep_comments = false;
};

diag::Result<TreeSet, ParseError> parse(std::string_view text, std::string_view name,
                                        const Options& options = {});
// The same, keeping `text` itself in the TreeSet rather than a copy of it.
diag::Result<TreeSet, ParseError> parse_owned(std::string text, std::string_view name,
                                              const Options& options = {});

// text/template's builtin functions (and, call, eq, index, len, printf, ...).
bool is_builtin(std::string_view name);

// Go's Node.String(): the node as template source (text as Go's %q in tests: see quote_text).
std::string to_string(const Node& node, bool quote_text = false);

// ---- Walking -----------------------------------------------------------------------------

// Calls `visit(node)` for `node` and, while it returns true, for every node below it, in
// source order (pipes before lists, declarations before commands).
void walk(const Node& node, const std::function<bool(const Node&)>& visit);

}  // namespace hintkit::gotmpl

// Go's text/template grammar, parse only: the lexer and parser of Go's text/template/parse
// (Go 1.19) ported to C++, producing the same tree of nodes with byte offsets. Nothing here
// executes a template; the tree is for checkers (tmplcheck/) and, later, executors.
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
struct Node {
  explicit Node(NodeType t, size_t p) : type(t), pos(p) {}
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  NodeType type;
  size_t pos;
};
using NodePtr = std::unique_ptr<Node>;

// Text and comments view the TreeSet's copy of the parsed text (they live as long as it).
struct TextNode : Node {
  TextNode(size_t p, std::string_view t) : Node(NodeType::kText, p), text(t) {}
  std::string_view text;
};

struct CommentNode : Node {
  CommentNode(size_t p, std::string_view t) : Node(NodeType::kComment, p), text(t) {}
  std::string_view text;  // with its /* */
};

struct ListNode : Node {
  explicit ListNode(size_t p) : Node(NodeType::kList, p) {}
  std::vector<NodePtr> nodes;
};

// `$x`, `$x.a.b`, `$`: ident[0] is the variable, the rest are fields; ident_pos has the byte
// offset of each part (a field's offset is that of its dot).
struct VariableNode : Node {
  VariableNode(size_t p) : Node(NodeType::kVariable, p) {}
  std::vector<std::string> ident;
  std::vector<size_t> ident_pos;
};

// `.a.b`: ident is {"a", "b"}, ident_pos the offset of each part's dot.
struct FieldNode : Node {
  FieldNode(size_t p) : Node(NodeType::kField, p) {}
  std::vector<std::string> ident;
  std::vector<size_t> ident_pos;
};

struct CommandNode : Node {
  explicit CommandNode(size_t p) : Node(NodeType::kCommand, p) {}
  std::vector<NodePtr> args;  // the first is the function or the value
};

// A pipeline: optional declarations, then commands joined by `|`.
struct PipeNode : Node {
  explicit PipeNode(size_t p) : Node(NodeType::kPipe, p) {}
  bool is_assign = false;  // `=` rather than `:=`
  std::vector<std::unique_ptr<VariableNode>> decl;
  std::vector<std::unique_ptr<CommandNode>> cmds;
};

struct ActionNode : Node {
  ActionNode(size_t p, std::unique_ptr<PipeNode> pi)
      : Node(NodeType::kAction, p), pipe(std::move(pi)) {}
  std::unique_ptr<PipeNode> pipe;
};

struct IdentifierNode : Node {
  IdentifierNode(size_t p, std::string n) : Node(NodeType::kIdentifier, p), ident(std::move(n)) {}
  std::string ident;
};

// A term followed by fields: `(pipe).a.b`. Fields after a field or a variable extend those
// nodes instead, as Go does.
struct ChainNode : Node {
  ChainNode(size_t p, NodePtr n) : Node(NodeType::kChain, p), node(std::move(n)) {}
  NodePtr node;
  std::vector<std::string> field;
  std::vector<size_t> field_pos;
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
  NumberNode(size_t p, std::string t) : Node(NodeType::kNumber, p), text(std::move(t)) {}
  bool is_int = false, is_uint = false, is_float = false, is_complex = false;
  int64_t int64 = 0;
  uint64_t uint64 = 0;
  double float64 = 0;
  double real = 0, imag = 0;  // is_complex
  std::string text;
};

struct StringNode : Node {
  StringNode(size_t p, std::string q, std::string t)
      : Node(NodeType::kString, p), quoted(std::move(q)), text(std::move(t)) {}
  std::string quoted;  // as written
  std::string text;    // unquoted
};

// `if`, `range` and `with` share this shape (Go's BranchNode). `else if` / `else with` are an
// else list holding one nested node, as Go parses them.
struct BranchNode : Node {
  BranchNode(NodeType t, size_t p) : Node(t, p) {}
  std::unique_ptr<PipeNode> pipe;
  std::unique_ptr<ListNode> list;
  std::unique_ptr<ListNode> else_list;  // null when there is no else
};

struct TemplateNode : Node {
  TemplateNode(size_t p, std::string n, std::unique_ptr<PipeNode> pi)
      : Node(NodeType::kTemplate, p), name(std::move(n)), pipe(std::move(pi)) {}
  std::string name;
  std::unique_ptr<PipeNode> pipe;  // null: `{{template "x"}}` (dot is nil there)
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
  std::unique_ptr<ListNode> root;
  size_t pos = 0;  // the define's / block's name, 0 for the main tree
};

// The parsed text: every tree by name, and how offsets map to lines and columns.
class TreeSet {
 public:
  std::map<std::string, Tree> trees;
  std::string main;  // the main tree's name

  // 1-based line and column (counted in code points) of a byte offset of the text. The line
  // table is made on the first call (most texts never need one): not for concurrent callers.
  diag::Position position(size_t offset) const;
  std::string_view text() const { return text_ ? std::string_view(*text_) : std::string_view(); }

  // Internal, set by parse().
  void set_text(std::string_view text);

 private:
  std::unique_ptr<std::string> text_;        // its address stays put when the set is moved
  mutable std::vector<size_t> line_starts_;  // empty until position() needs it
};

struct ParseError {
  std::string message;  // Go's text after "template: NAME:LINE: "
  size_t offset = 0;    // where the parser stood (the current token)
  diag::Position at;
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

// text/template's builtin functions (and, call, eq, index, len, printf, ...).
bool is_builtin(std::string_view name);

// Go's Node.String(): the node as template source (text as Go's %q in tests: see quote_text).
std::string to_string(const Node& node, bool quote_text = false);

// ---- Walking -----------------------------------------------------------------------------

// Calls `visit(node)` for `node` and, while it returns true, for every node below it, in
// source order (pipes before lists, declarations before commands).
void walk(const Node& node, const std::function<bool(const Node&)>& visit);

}  // namespace hintkit::gotmpl

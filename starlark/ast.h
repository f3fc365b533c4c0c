// Syntax tree of a Starlark file. Built by the parser, annotated in place by the resolver
// (every identifier gets a `Binding`), walked by the evaluator. Internal to starlark/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "starlark/starlark.h"

namespace hintkit::starlark {

using Pos = diag::Position;

// Where a resolved name lives at run time.
enum class Scope : uint8_t {
  kUnresolved,
  kLocal,        // frame slot
  kCell,         // frame cell (a local captured by a nested function)
  kFree,         // closure cell of the running function
  kGlobal,       // module slot
  kPredeclared,  // host-provided name, by index
  kUniverse,     // builtin; value stored in the binding
};

struct Binding {
  Scope scope = Scope::kUnresolved;
  int index = 0;
  std::string name;
  Value universe;         // kUniverse only
  bool captured = false;  // a local that nested functions read (becomes a cell)
};

enum class ExprKind : uint8_t {
  kIdent,
  kLiteral,
  kUnary,
  kBinary,
  kCall,
  kIndex,
  kSlice,
  kDot,
  kList,
  kTuple,
  kDict,
  kComprehension,
  kLambda,
  kCond,
  kParen,
};

enum class Tok : uint8_t;  // scanner.h

struct Expr {
  explicit Expr(ExprKind k, Pos p) : kind(k), pos(p) {}
  virtual ~Expr() = default;
  ExprKind kind;
  Pos pos;
};
using ExprPtr = std::unique_ptr<Expr>;

struct Ident : Expr {
  Ident(Pos p, std::string n) : Expr(ExprKind::kIdent, p), name(std::move(n)) {}
  std::string name;
  Binding* binding = nullptr;
};

struct Literal : Expr {
  Literal(Pos p, Value v) : Expr(ExprKind::kLiteral, p), value(std::move(v)) {}
  Value value;
};

enum class BinOp : uint8_t {
  kAnd,
  kOr,
  kEq,
  kNe,
  kLt,
  kGt,
  kLe,
  kGe,
  kIn,
  kNotIn,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kSlashSlash,
  kPercent,
  kAmp,
  kPipe,
  kCaret,
  kShl,
  kShr,
};
enum class UnOp : uint8_t { kNot, kMinus, kPlus, kTilde };
std::string_view to_string(BinOp op);

struct Unary : Expr {
  Unary(Pos p, UnOp o, ExprPtr x) : Expr(ExprKind::kUnary, p), op(o), x(std::move(x)) {}
  UnOp op;
  ExprPtr x;
};

struct Binary : Expr {
  Binary(Pos p, BinOp o, ExprPtr l, ExprPtr r)
      : Expr(ExprKind::kBinary, p), op(o), x(std::move(l)), y(std::move(r)) {}
  BinOp op;
  ExprPtr x, y;
};

struct Arg {
  enum Kind : uint8_t { kPositional, kNamed, kStar, kStarStar } kind = kPositional;
  Pos pos;           // the `*`/`**`, or the keyword's name; unset for positional arguments
  std::string name;  // kNamed
  Value name_value;  // interned string of `name`
  ExprPtr value;
};

struct CallExpr : Expr {
  CallExpr(Pos p, ExprPtr f) : Expr(ExprKind::kCall, p), fn(std::move(f)) {}
  ExprPtr fn;
  std::vector<Arg> args;
  bool simple = true;  // only positional and named arguments
};

struct IndexExpr : Expr {
  IndexExpr(Pos p, ExprPtr x, ExprPtr i)
      : Expr(ExprKind::kIndex, p), x(std::move(x)), index(std::move(i)) {}
  ExprPtr x, index;
};

struct SliceExpr : Expr {
  SliceExpr(Pos p, ExprPtr x) : Expr(ExprKind::kSlice, p), x(std::move(x)) {}
  ExprPtr x, lo, hi, step;  // any of lo/hi/step may be null
};

struct DotExpr : Expr {
  DotExpr(Pos p, ExprPtr x, std::string n)
      : Expr(ExprKind::kDot, p), x(std::move(x)), name(std::move(n)) {}
  ExprPtr x;
  std::string name;
};

struct ListExpr : Expr {  // also kTuple
  ListExpr(ExprKind k, Pos p) : Expr(k, p) {}
  std::vector<ExprPtr> items;
};

struct DictEntry {
  ExprPtr key, value;
};
struct DictExpr : Expr {
  explicit DictExpr(Pos p) : Expr(ExprKind::kDict, p) {}
  std::vector<DictEntry> entries;
};

struct Clause {
  bool is_for = true;
  Pos pos;
  ExprPtr vars;  // for: target
  ExprPtr x;     // for: iterable; if: condition
};

struct Comprehension : Expr {
  Comprehension(Pos p, bool d) : Expr(ExprKind::kComprehension, p), is_dict(d) {}
  bool is_dict;
  ExprPtr body;        // list element, or dict key
  ExprPtr dict_value;  // dict only
  std::vector<Clause> clauses;
};

struct CondExpr : Expr {
  CondExpr(Pos p, ExprPtr c, ExprPtr t, ExprPtr f)
      : Expr(ExprKind::kCond, p), cond(std::move(c)), then(std::move(t)), els(std::move(f)) {}
  ExprPtr cond, then, els;
};

struct ParenExpr : Expr {
  ParenExpr(Pos p, ExprPtr x) : Expr(ExprKind::kParen, p), x(std::move(x)) {}
  ExprPtr x;
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

struct Param {
  enum Kind : uint8_t { kNormal, kDefault, kStar, kStarStar } kind = kNormal;
  Pos pos;
  Pos name_pos;      // the name (unset for a bare `*`)
  Pos op_pos;        // the `=` of a default, the `*`/`**` of a star parameter
  std::string name;  // empty for a bare `*`
  ExprPtr default_value;
  Binding* binding = nullptr;
};

// Shared by def and lambda.
struct Function {
  std::string name;  // "lambda" for lambdas
  Pos pos;
  Pos entry_pos;              // where a frame of this function points before its first operation
  bool ctx_inserted = false;  // a template fragment function: start_ctx/end_ctx were added
  std::vector<Param> params;
  Block body;  // lambdas: a single return statement
  // Filled by the resolver:
  int num_positional = 0;  // named params before * / *args
  int num_kwonly = 0;      // named params after * / *args
  bool has_varargs = false;
  bool has_kwargs = false;
  int num_defaults_first = 0;      // index of the first parameter with a default (among named)
  std::vector<int> param_slots;    // local slot of each named param, then *args, then **kwargs
  std::vector<Value> param_names;  // interned names of named params (positional + kwonly)
  int num_locals = 0;
  int num_cells = 0;
  std::vector<std::pair<int, int>> cell_params;  // (local slot, cell index) to copy at entry
  std::vector<std::unique_ptr<Binding>> locals;  // owned bindings of locals
  // Free variables: for each, where the enclosing function holds it.
  struct FreeVar {
    Binding* outer;  // kCell or kFree binding in the enclosing function
  };
  std::vector<FreeVar> freevars;
};

struct LambdaExpr : Expr {
  LambdaExpr(Pos p) : Expr(ExprKind::kLambda, p), fn(std::make_shared<Function>()) {}
  std::shared_ptr<Function> fn;
};

enum class StmtKind : uint8_t {
  kExpr,
  kAssign,
  kAugAssign,
  kDef,
  kIf,
  kFor,
  kWhile,
  kReturn,
  kBreak,
  kContinue,
  kLoad,
};

struct Stmt {
  Stmt(StmtKind k, Pos p) : kind(k), pos(p) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  Pos pos;
};

struct ExprStmt : Stmt {
  ExprStmt(Pos p, ExprPtr x) : Stmt(StmtKind::kExpr, p), x(std::move(x)) {}
  ExprPtr x;
};

struct AssignStmt : Stmt {  // also kAugAssign
  AssignStmt(StmtKind k, Pos p) : Stmt(k, p) {}
  Pos op_pos;
  BinOp op = BinOp::kPlus;  // aug only
  ExprPtr lhs, rhs;
};

struct DefStmt : Stmt {
  DefStmt(Pos p) : Stmt(StmtKind::kDef, p), fn(std::make_shared<Function>()) {}
  std::unique_ptr<Ident> name;
  std::shared_ptr<Function> fn;
};

struct IfStmt : Stmt {
  IfStmt(Pos p) : Stmt(StmtKind::kIf, p) {}
  ExprPtr cond;
  Block then, els;
};

struct ForStmt : Stmt {
  ForStmt(Pos p) : Stmt(StmtKind::kFor, p) {}
  ExprPtr vars, x;
  Block body;
};

struct WhileStmt : Stmt {
  WhileStmt(Pos p) : Stmt(StmtKind::kWhile, p) {}
  ExprPtr cond;
  Block body;
};

struct ReturnStmt : Stmt {
  ReturnStmt(Pos p) : Stmt(StmtKind::kReturn, p) {}
  ExprPtr result;  // may be null
};

struct BranchStmt : Stmt {
  BranchStmt(StmtKind k, Pos p) : Stmt(k, p) {}
};

struct LoadStmt : Stmt {
  LoadStmt(Pos p) : Stmt(StmtKind::kLoad, p) {}
  std::string module;
  std::vector<std::unique_ptr<Ident>> to;  // local names
  std::vector<std::string> from;           // names in the module
  std::vector<Pos> from_pos;
};

// A parsed file: the top level is treated as a function with its own locals
// (comprehension variables) while its assignments bind globals.
struct File {
  std::string name;
  std::vector<std::string> lines;  // source lines, for backtraces
  std::shared_ptr<Function> toplevel;
  std::vector<std::unique_ptr<Binding>> globals;
  std::vector<std::unique_ptr<Binding>> predeclared;
  std::vector<std::unique_ptr<Binding>> universe;
  std::vector<std::string> loads;
};

}  // namespace hintkit::starlark

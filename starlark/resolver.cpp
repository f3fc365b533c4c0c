#include "starlark/resolver.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "starlark/scopes.h"
#include "starlark/walk.h"

namespace hintkit::starlark {
namespace {

// ---- Targets and bound names ----

// The names an assignment target binds: x, (x), [x, y], (x, (y, z)); x[i] and x.f bind none.
void collect_targets(const Expr& target, std::vector<const Ident*>& out) {
  walk(target, Overloaded{[&](const Expr& e) {
                            if (e.kind == ExprKind::kIdent)
                              out.push_back(static_cast<const Ident*>(&e));
                            return e.kind == ExprKind::kParen || e.kind == ExprKind::kList ||
                                   e.kind == ExprKind::kTuple;
                          },
                          [](const Stmt&) { return false; }});
}

// Names a block binds, in the order they appear, not looking into nested functions or
// expressions (comprehension variables are the comprehension's).
void collect_names(const Block& body, std::vector<std::string>& names) {
  auto targets = [&](const Expr& e) {
    std::vector<const Ident*> ids;
    collect_targets(e, ids);
    for (auto* id : ids) names.push_back(id->name);
  };
  walk(body, Overloaded{[&](const Stmt& s) {
                          switch (s.kind) {
                            case StmtKind::kAssign:
                            case StmtKind::kAugAssign:  // (x) += 1 binds x; x, y += 1 is an
                                                        // error later
                              targets(*static_cast<const AssignStmt&>(s).lhs);
                              return false;
                            case StmtKind::kDef:
                              names.push_back(static_cast<const DefStmt&>(s).name->name);
                              return false;
                            case StmtKind::kFor:  // its variables, then its body's names
                              targets(*static_cast<const ForStmt&>(s).vars);
                              return true;
                            case StmtKind::kLoad:
                              for (const auto& id : static_cast<const LoadStmt&>(s).to)
                                names.push_back(id->name);
                              return false;
                            default:
                              return true;
                          }
                        },
                        [](const Expr&) { return false; }});
}

// ---- A function's entry position ----

std::optional<Pos> first_pos(const Stmt& s);
std::optional<Pos> first_pos(const Expr& e);

// The first of a node's children (in evaluation order) that has a position.
template <class Node>
std::optional<Pos> first_child_pos(const Node& n) {
  std::optional<Pos> found;
  children(n, [&](const auto& c) {
    if (!found) found = first_pos(c);
  });
  return found;
}

// The position of the first operation that has one, in compile order: a lookup of a
// non-builtin name, or a call, an operator, an attribute or an index.
std::optional<Pos> first_pos(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kIdent: {
      const Binding* b = static_cast<const Ident&>(e).binding;
      if (b && b->scope == Scope::kUniverse) return std::nullopt;
      return e.pos;
    }
    case ExprKind::kLiteral:
      return std::nullopt;
    case ExprKind::kParen:
    case ExprKind::kList:
    case ExprKind::kTuple:
      return first_child_pos(e);
    case ExprKind::kCall:
    case ExprKind::kDot:
    case ExprKind::kIndex:
    case ExprKind::kBinary:
      if (auto p = first_child_pos(e)) return p;
      return e.pos;
    default:
      return e.pos;
  }
}

std::optional<Pos> first_pos(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::kFor:  // the iterable, then the loop itself
      if (auto p = first_pos(*static_cast<const ForStmt&>(s).x)) return p;
      return s.pos;
    case StmtKind::kDef:
    case StmtKind::kLoad:
    case StmtKind::kBreak:
    case StmtKind::kContinue:
      return std::nullopt;
    default:
      return first_child_pos(s);
  }
}

// The identifier a statement's first operand starts with, if it starts with one.
const Ident* first_leaf(const Stmt& s) {
  const Expr* e = nullptr;
  switch (s.kind) {
    case StmtKind::kExpr:
      e = static_cast<const ExprStmt&>(s).x.get();
      break;
    case StmtKind::kAssign:
      e = static_cast<const AssignStmt&>(s).rhs.get();
      break;
    case StmtKind::kAugAssign:
      e = static_cast<const AssignStmt&>(s).lhs.get();
      break;
    case StmtKind::kReturn:
      e = static_cast<const ReturnStmt&>(s).result.get();
      break;
    case StmtKind::kIf:
      e = static_cast<const IfStmt&>(s).cond.get();
      break;
    case StmtKind::kWhile:
      e = static_cast<const WhileStmt&>(s).cond.get();
      break;
    case StmtKind::kFor:
      e = static_cast<const ForStmt&>(s).x.get();
      break;
    default:
      break;
  }
  while (e && e->kind != ExprKind::kIdent) e = first_child(*e);
  return static_cast<const Ident*>(e);
}

// Where a frame of `fn` points before its first operation.
Pos entry_pos(const Function& fn) {
  if (fn.ctx_inserted) {
    // ytt's inserted start_ctx call has no position and its lookup clears the def's, so a
    // frame of the function that fails before its first operation (argument binding)
    // points at the first operation of the original body that has one, or nowhere.
    for (size_t i = 1; i < fn.body.size(); ++i) {
      if (auto p = first_pos(*fn.body[i])) return *p;
    }
    return Pos{};
  }
  if (!fn.body.empty()) {
    if (const Ident* id = first_leaf(*fn.body.front())) {
      if (id->binding && id->binding->scope != Scope::kUniverse &&
          id->binding->scope != Scope::kUnresolved)
        return id->pos;
    }
  }
  return fn.pos;
}

// The name starlark-go's resolver gives a node that cannot be assigned to (its Go type).
std::string_view node_name(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      return "literal";
    case ExprKind::kCall:
      return "callexpr";
    case ExprKind::kSlice:
      return "sliceexpr";
    case ExprKind::kBinary:
      return "binaryexpr";
    case ExprKind::kUnary:
      return "unaryexpr";
    case ExprKind::kDict:
      return "dictexpr";
    case ExprKind::kComprehension:
      return "comprehension";
    case ExprKind::kLambda:
      return "lambdaexpr";
    case ExprKind::kCond:
      return "condexpr";
    default:
      return "expr";
  }
}

// Walks the tree once, in starlark-go's order, asking `Scopes` what each name means and
// checking what only the tree shows (argument and parameter order, break outside a loop, ...).
class Resolver {
 public:
  Resolver(File& file, const std::vector<std::string>& predeclared,
           const NamePredicate& is_universal, std::vector<Problem>& problems)
      : file_(file), scopes_(file, predeclared, is_universal, problems) {}

  void run() {
    FunctionScope top;
    top.fn = file_.toplevel.get();
    // Every name bound at top level is a global for the whole file.
    std::vector<std::string> names;
    collect_names(file_.toplevel->body, names);
    for (const auto& n : names) scopes_.global(n);
    scopes_.enter_file(top);
    resolve_block(file_.toplevel->body);
    finish_function(*file_.toplevel);
    scopes_.finish();
  }

 private:
  void error(Pos p, std::string msg) { scopes_.error(p, std::move(msg)); }

  // ---- Expressions ----

  void expr(Expr& e) {
    switch (e.kind) {
      case ExprKind::kIdent:
        scopes_.use(static_cast<Ident&>(e));
        return;
      case ExprKind::kCall:
        call(static_cast<CallExpr&>(e));
        return;
      case ExprKind::kComprehension:
        comprehension(static_cast<Comprehension&>(e));
        return;
      case ExprKind::kLambda:
        function(*static_cast<LambdaExpr&>(e).fn);
        return;
      default:
        children(e, Overloaded{[this](Expr& c) { expr(c); }, [](Stmt&) {}});
        return;
    }
  }

  // starlark-go's argument-order rules, checked as each argument is resolved.
  void call(CallExpr& c) {
    expr(*c.fn);
    bool seen_varargs = false, seen_kwargs = false;
    std::vector<std::string_view> names;
    for (auto& a : c.args) {
      switch (a.kind) {
        case Arg::kStarStar:
          if (seen_kwargs) error(a.pos, "multiple **kwargs not allowed");
          seen_kwargs = true;
          break;
        case Arg::kStar:
          if (seen_kwargs) {
            error(a.pos, "*args may not follow **kwargs");
          } else if (seen_varargs) {
            error(a.pos, "multiple *args not allowed");
          }
          seen_varargs = true;
          break;
        case Arg::kNamed:
          if (seen_kwargs) error(a.pos, "argument may not follow **kwargs");
          if (std::find(names.begin(), names.end(), a.name) != names.end()) {
            error(a.pos, "keyword argument " + a.name + " repeated");
          } else {
            names.push_back(a.name);
          }
          break;
        case Arg::kPositional: {
          Pos p = start_pos(*a.value);
          if (seen_varargs) {
            error(p, "argument may not follow *args");
          } else if (seen_kwargs) {
            error(p, "argument may not follow **kwargs");
          } else if (!names.empty()) {
            error(p, "positional argument may not follow named");
          }
          break;
        }
      }
      expr(*a.value);
    }
  }

  // ---- Assignments ----

  // The targets of an assignment, a for loop or a comprehension clause: names are bound, the
  // operands of x[i] and x.f resolved; anything else is an error (starlark-go's resolver, which
  // names the syntax node's Go type). `aug`: the target of an augmented assignment.
  void assign(Expr& e, bool aug = false) {
    switch (e.kind) {
      case ExprKind::kIdent:
        scopes_.bind(static_cast<Ident&>(e));
        return;
      case ExprKind::kParen:
        assign(*static_cast<ParenExpr&>(e).x, aug);
        return;
      case ExprKind::kList:
      case ExprKind::kTuple: {
        const bool list = e.kind == ExprKind::kList;
        auto& items = static_cast<ListExpr&>(e).items;
        if (items.empty()) error(e.pos, list ? "can't assign to []" : "can't assign to ()");
        if (aug) {
          error(e.pos, std::string("can't use ") + (list ? "list" : "tuple") +
                           " expression in augmented assignment");
        }
        for (auto& x : items) assign(*x, aug);
        return;
      }
      case ExprKind::kIndex: {
        auto& i = static_cast<IndexExpr&>(e);
        expr(*i.x);
        expr(*i.index);
        return;
      }
      case ExprKind::kDot:
        expr(*static_cast<DotExpr&>(e).x);
        return;
      default:
        error(e.pos, "can't assign to " + std::string(node_name(e)));
        return;
    }
  }

  // ---- Statements ----

  void resolve_block(Block& body) {
    for (auto& s : body) stmt(*s);
  }

  void stmt(Stmt& s) {
    switch (s.kind) {
      case StmtKind::kExpr:
        expr(*static_cast<ExprStmt&>(s).x);
        return;
      case StmtKind::kAssign: {
        auto& a = static_cast<AssignStmt&>(s);
        expr(*a.rhs);
        assign(*a.lhs);
        return;
      }
      case StmtKind::kAugAssign: {
        auto& a = static_cast<AssignStmt&>(s);
        expr(*a.rhs);
        assign(*a.lhs, true);
        return;
      }
      case StmtKind::kDef: {
        auto& d = static_cast<DefStmt&>(s);
        function(*d.fn);
        scopes_.bind(*d.name);
        return;
      }
      case StmtKind::kIf: {
        auto& i = static_cast<IfStmt&>(s);
        expr(*i.cond);
        resolve_block(i.then);
        resolve_block(i.els);
        return;
      }
      case StmtKind::kFor: {
        auto& f = static_cast<ForStmt&>(s);
        expr(*f.x);
        assign(*f.vars);
        ++scopes_.current().loop_depth;
        resolve_block(f.body);
        --scopes_.current().loop_depth;
        return;
      }
      case StmtKind::kWhile: {
        auto& w = static_cast<WhileStmt&>(s);
        expr(*w.cond);
        ++scopes_.current().loop_depth;
        resolve_block(w.body);
        --scopes_.current().loop_depth;
        return;
      }
      case StmtKind::kReturn: {
        auto& r = static_cast<ReturnStmt&>(s);
        if (scopes_.at_top_level()) error(s.pos, "return statement not within a function");
        if (r.result) expr(*r.result);
        return;
      }
      case StmtKind::kBreak:
      case StmtKind::kContinue:
        if (scopes_.current().loop_depth == 0)
          error(s.pos,
                std::string(s.kind == StmtKind::kBreak ? "break" : "continue") + " not in a loop");
        return;
      case StmtKind::kLoad: {
        auto& l = static_cast<LoadStmt&>(s);
        if (!scopes_.at_top_level()) {
          error(s.pos, "load statement within a function");
          return;
        }
        file_.loads.push_back(l.module);
        for (size_t i = 0; i < l.from.size(); ++i) {
          if (!l.from[i].empty() && l.from[i][0] == '_') {
            error(i < l.from_pos.size() ? l.from_pos[i] : s.pos,
                  "load: names with leading underscores are not exported: " + l.from[i]);
          }
        }
        for (auto& id : l.to) scopes_.bind(*id);
        return;
      }
    }
  }

  // ---- Functions ----

  void function(Function& fn) {
    // Defaults are evaluated in the enclosing scope.
    for (auto& p : fn.params) {
      if (p.default_value) expr(*p.default_value);
    }
    FunctionScope fs;
    fs.fn = &fn;
    scopes_.enter(fs);
    layout(fn);
    params(fs, fn);
    // Then every name the body binds.
    std::vector<std::string> names;
    collect_names(fn.body, names);
    for (const auto& n : names) {
      if (!fs.locals.count(n)) fs.locals[n] = scopes_.new_local(fn, n);
    }
    resolve_block(fn.body);
    scopes_.leave();
    finish_function(fn);
  }

  // The parameter layout calls use: named parameters, then *args, then **kwargs.
  static void layout(Function& fn) {
    bool after_star = false;
    int first_default = -1;
    for (auto& p : fn.params) {
      if (p.kind == Param::kStar) {
        after_star = true;
        if (!p.name.empty()) fn.has_varargs = true;
        continue;
      }
      if (p.kind == Param::kStarStar) {
        fn.has_kwargs = true;
        continue;
      }
      if (after_star) {
        ++fn.num_kwonly;
      } else {
        ++fn.num_positional;
        if (p.kind == Param::kDefault && first_default < 0) first_default = fn.num_positional - 1;
      }
    }
    fn.num_defaults_first = first_default < 0 ? fn.num_positional : first_default;
  }

  // Declares the parameters as locals.
  void params(FunctionScope& fs, Function& fn) {
    // starlark-go's parameter checks, in its order and at its positions.
    bool seen_optional = false;
    Param* star = nullptr;
    Param* star_star = nullptr;
    int kwonly = 0;
    for (auto& p : fn.params) {
      switch (p.kind) {
        case Param::kNormal:
          if (star_star) {
            error(p.name_pos, "required parameter may not follow **" + star_star->name);
          } else if (star) {
            ++kwonly;
          } else if (seen_optional) {
            error(p.name_pos, "required parameter may not follow optional");
          }
          declare_param(fs, p, p.name_pos);
          break;
        case Param::kDefault:
          if (star_star) {
            error(p.op_pos, "optional parameter may not follow **" + star_star->name);
          } else if (star) {
            ++kwonly;
          }
          declare_param(fs, p, p.op_pos);
          seen_optional = true;
          break;
        case Param::kStar:
          if (star_star) {
            error(p.op_pos, "* parameter may not follow **" + star_star->name);
          } else if (star) {
            error(p.op_pos, "multiple * parameters not allowed");
          } else {
            star = &p;
          }
          break;
        case Param::kStarStar:
          if (star_star) error(p.op_pos, "multiple ** parameters not allowed");
          star_star = &p;  // the last ** wins, as in starlark-go; earlier ones stay unbound
          break;
      }
    }
    if (star) {
      if (!star->name.empty()) {
        declare_param(fs, *star, star->name_pos);
      } else if (kwonly == 0) {
        error(star->op_pos, "bare * must be followed by keyword-only parameters");
      }
    }
    // A rejected extra * or ** parameter binds no name (its uses report "undefined"), as in
    // starlark-go; the compile error stops the program before it could run.
    if (star_star) declare_param(fs, *star_star, star_star->name_pos);
  }

  void declare_param(FunctionScope& fs, Param& p, Pos at) {
    if (fs.locals.count(p.name)) {
      error(at, "duplicate parameter: " + p.name);
      p.binding = fs.locals[p.name];
      return;
    }
    p.binding = scopes_.new_local(*fs.fn, p.name);
    fs.locals[p.name] = p.binding;
    if (p.kind == Param::kNormal || p.kind == Param::kDefault)
      fs.fn->param_names.push_back(Value::from_string(p.name));
  }

  // Turns captured locals into cells; computes the entry position.
  void finish_function(Function& fn) {
    for (auto& b : fn.locals) {
      if (b->scope == Scope::kLocal && b->captured) {
        b->scope = Scope::kCell;
        b->index = fn.num_cells++;
      }
    }
    fn.entry_pos = entry_pos(fn);
  }

  // ---- Comprehensions ----

  void declare_comprehension_vars(Expr& vars) {
    std::vector<const Ident*> ids;
    collect_targets(vars, ids);
    auto& c = scopes_.current().comprehensions.back();
    for (auto* id : ids) {
      if (!c.count(id->name)) c[id->name] = scopes_.new_local(*scopes_.current().fn, id->name);
    }
    assign(vars);
  }

  void comprehension(Comprehension& c) {
    // The first iterable is evaluated in the enclosing scope.
    expr(*c.clauses.front().x);
    scopes_.push_comprehension();
    declare_comprehension_vars(*c.clauses.front().vars);
    for (size_t i = 1; i < c.clauses.size(); ++i) {
      Clause& cl = c.clauses[i];
      expr(*cl.x);
      if (cl.is_for) declare_comprehension_vars(*cl.vars);
    }
    expr(*c.body);
    if (c.dict_value) expr(*c.dict_value);
    scopes_.pop_comprehension();
  }

  File& file_;
  Scopes scopes_;
};

}  // namespace

void resolve(File& file, const std::vector<std::string>& predeclared,
             const NamePredicate& is_universal, std::vector<Problem>& problems) {
  Resolver(file, predeclared, is_universal, problems).run();
}

}  // namespace hintkit::starlark

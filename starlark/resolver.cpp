#include "starlark/resolver.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "diag/diag.h"
#include "starlark/runtime.h"

namespace hintkit::starlark {
namespace {

// starlark-go's lexical blocks, kept only to order errors as it does: a use that is not at the
// top level proper is resolved when the file ends, block by block (inner blocks first, then
// the container's own uses), so its "undefined" comes after every immediate error.
struct LexBlock {
  LexBlock* parent = nullptr;
  bool container = false;  // a function body or the file
  std::vector<std::unique_ptr<LexBlock>> children;
  std::vector<Problem> deferred;  // "undefined" uses resolved at the end, in order
  // For each deferred use: the block it appears in and the name.
  std::vector<std::pair<LexBlock*, std::string>> deferred_uses;
  // Names a failed lookup has already been memoised in (starlark-go's lookupLexical binds
  // each block on the way up, so later uses below it are not reported again).
  std::unordered_set<std::string> memo;
};

struct FunctionScope {
  Function* fn = nullptr;
  FunctionScope* parent = nullptr;  // enclosing function (null for the top level)
  std::unordered_map<std::string, Binding*> locals;
  std::vector<std::unordered_map<std::string, Binding*>> comprehensions;  // innermost last
  std::unordered_map<std::string, Binding*> free;
  int loop_depth = 0;
};

class Resolver {
 public:
  Resolver(File& file, const std::vector<std::string>& predeclared, std::vector<Problem>& problems)
      : file_(file), problems_(problems) {
    for (size_t i = 0; i < predeclared.size(); ++i) {
      auto b = std::make_unique<Binding>();
      b->scope = Scope::kPredeclared;
      b->index = static_cast<int>(i);
      b->name = predeclared[i];
      predeclared_[predeclared[i]] = b.get();
      file_.predeclared.push_back(std::move(b));
    }
    for (const auto& [name, value] : universe()) universe_values_[name] = value;
  }

  void run() {
    FunctionScope top;
    top.fn = file_.toplevel.get();
    // Every name bound at top level is a global for the whole file.
    collect_globals(file_.toplevel->body);
    scope_ = &top;
    file_block_.container = true;
    env_ = &file_block_;
    resolve_block(file_.toplevel->body);
    finish_function(*file_.toplevel);
    scope_ = nullptr;
    flush_deferred(file_block_);
  }

 private:
  void error(Pos p, std::string msg) { problems_.push_back({std::move(msg), file_.name, p}); }

  void push_block(bool container) {
    auto b = std::make_unique<LexBlock>();
    b->parent = env_;
    b->container = container;
    LexBlock* raw = b.get();
    env_->children.push_back(std::move(b));
    env_ = raw;
  }
  void pop_block() { env_ = env_->parent; }

  // Undefined names are matched against the candidates in sorted order.
  static std::string nearest(const std::string& x, std::vector<std::string> candidates) {
    std::sort(candidates.begin(), candidates.end());
    return diag::go_spell_nearest(x, candidates);
  }

  // The names a misspelt use may have meant: the enclosing functions' locals and the globals.
  std::string spelling_hint(const std::string& name) {
    std::vector<std::string> names;
    for (FunctionScope* f = scope_; f; f = f->parent) {
      for (const auto& c : f->comprehensions)
        for (const auto& [n, _] : c) names.push_back(n);
      for (const auto& [n, _] : f->locals) names.push_back(n);
    }
    // Directly at top level only the globals bound so far are known (function bodies are
    // resolved once the whole file has been).
    const bool direct = !scope_->parent && scope_->comprehensions.empty();
    for (const auto& [n, _] : globals_) {
      if (!direct || bound_.count(n)) names.push_back(n);
    }
    std::string best = nearest(name, std::move(names));
    return best.empty() ? "" : " (did you mean " + best + "?)";
  }

  // An undefined name: reported now at the top level proper, else when the file ends.
  void undefined(Pos p, const std::string& name) {
    const std::string msg = "undefined: " + name + spelling_hint(name);
    if (env_ == &file_block_) {
      error(p, msg);
      return;
    }
    LexBlock* c = env_;
    while (!c->container) c = c->parent;
    c->deferred.push_back({msg, file_.name, p});
    c->deferred_uses.emplace_back(env_, name);
  }

  // starlark-go's resolveNonLocalUses: inner blocks first, then the block's own uses; a name
  // a use failed to find is memoised in each block between the use and the file, so it is
  // reported once per function it appears in.
  void flush_deferred(LexBlock& b) {
    for (auto& child : b.children) flush_deferred(*child);
    for (size_t i = 0; i < b.deferred.size(); ++i) {
      auto& [env, name] = b.deferred_uses[i];
      bool seen = false;
      for (LexBlock* e = env; e && e != &file_block_; e = e->parent) {
        if (e->memo.count(name)) {
          seen = true;
          break;
        }
      }
      if (seen) continue;
      for (LexBlock* e = env; e && e != &file_block_; e = e->parent) e->memo.insert(name);
      problems_.push_back(std::move(b.deferred[i]));
    }
    b.deferred.clear();
    b.deferred_uses.clear();
  }

  // Where an expression starts (starlark-go's syntax.Start): the leftmost token.
  static Pos expr_start(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kBinary:
        return expr_start(*static_cast<const Binary&>(e).x);
      case ExprKind::kCall:
        return expr_start(*static_cast<const CallExpr&>(e).fn);
      case ExprKind::kIndex:
        return expr_start(*static_cast<const IndexExpr&>(e).x);
      case ExprKind::kSlice:
        return expr_start(*static_cast<const SliceExpr&>(e).x);
      case ExprKind::kDot:
        return expr_start(*static_cast<const DotExpr&>(e).x);
      case ExprKind::kCond:
        return expr_start(*static_cast<const CondExpr&>(e).then);
      default:
        return e.pos;
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
          Pos p = expr_start(*a.value);
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

  // ---- Binding collection ----

  Binding* global(const std::string& name) {
    auto it = globals_.find(name);
    if (it != globals_.end()) return it->second;
    auto b = std::make_unique<Binding>();
    b->scope = Scope::kGlobal;
    b->index = static_cast<int>(file_.globals.size());
    b->name = name;
    Binding* raw = b.get();
    globals_[name] = raw;
    file_.globals.push_back(std::move(b));
    return raw;
  }

  void collect_targets(const Expr& e, std::vector<const Ident*>& out) {
    switch (e.kind) {
      case ExprKind::kIdent:
        out.push_back(static_cast<const Ident*>(&e));
        return;
      case ExprKind::kParen:
        collect_targets(*static_cast<const ParenExpr&>(e).x, out);
        return;
      case ExprKind::kList:
      case ExprKind::kTuple:
        for (const auto& x : static_cast<const ListExpr&>(e).items) collect_targets(*x, out);
        return;
      default:
        return;
    }
  }

  // Names a block binds, not descending into nested functions.
  void collect_names(const Block& body, std::vector<std::string>& names) {
    for (const auto& s : body) {
      switch (s->kind) {
        case StmtKind::kAssign: {
          std::vector<const Ident*> ids;
          collect_targets(*static_cast<const AssignStmt&>(*s).lhs, ids);
          for (auto* id : ids) names.push_back(id->name);
          break;
        }
        case StmtKind::kAugAssign: {  // (x) += 1 binds x too; x, y += 1 is an error later
          std::vector<const Ident*> ids;
          collect_targets(*static_cast<const AssignStmt&>(*s).lhs, ids);
          for (auto* id : ids) names.push_back(id->name);
          break;
        }
        case StmtKind::kDef:
          names.push_back(static_cast<const DefStmt&>(*s).name->name);
          break;
        case StmtKind::kIf: {
          const auto& i = static_cast<const IfStmt&>(*s);
          collect_names(i.then, names);
          collect_names(i.els, names);
          break;
        }
        case StmtKind::kFor: {
          const auto& f = static_cast<const ForStmt&>(*s);
          std::vector<const Ident*> ids;
          collect_targets(*f.vars, ids);
          for (auto* id : ids) names.push_back(id->name);
          collect_names(f.body, names);
          break;
        }
        case StmtKind::kWhile:
          collect_names(static_cast<const WhileStmt&>(*s).body, names);
          break;
        case StmtKind::kLoad:
          for (const auto& id : static_cast<const LoadStmt&>(*s).to) names.push_back(id->name);
          break;
        default:
          break;
      }
    }
  }

  void collect_globals(const Block& body) {
    std::vector<std::string> names;
    collect_names(body, names);
    for (const auto& n : names) global(n);
  }

  Binding* new_local(Function& fn, const std::string& name) {
    auto b = std::make_unique<Binding>();
    b->scope = Scope::kLocal;
    b->index = fn.num_locals++;
    b->name = name;
    Binding* raw = b.get();
    fn.locals.push_back(std::move(b));
    return raw;
  }

  // ---- Lookup ----

  Binding* lookup_in(FunctionScope* fs, const std::string& name) {
    for (auto it = fs->comprehensions.rbegin(); it != fs->comprehensions.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end()) return f->second;
    }
    auto l = fs->locals.find(name);
    if (l != fs->locals.end()) return l->second;
    auto fr = fs->free.find(name);
    if (fr != fs->free.end()) return fr->second;
    if (!fs->parent) return nullptr;
    Binding* outer = lookup_in(fs->parent, name);
    if (!outer) return nullptr;
    if (outer->scope != Scope::kLocal && outer->scope != Scope::kCell &&
        outer->scope != Scope::kFree)
      return outer;
    if (outer->scope == Scope::kLocal) outer->captured = true;
    auto b = std::make_unique<Binding>();
    b->scope = Scope::kFree;
    b->index = static_cast<int>(fs->fn->freevars.size());
    b->name = name;
    fs->fn->freevars.push_back({outer});
    Binding* raw = b.get();
    fs->free[name] = raw;
    fs->fn->locals.push_back(std::move(b));
    return raw;
  }

  Binding* lookup(const std::string& name) {
    if (Binding* b = lookup_in(scope_, name)) return b;
    auto g = globals_.find(name);
    // Directly at top level a global must be bound earlier in the text; function bodies and
    // comprehensions may refer to globals bound later.
    bool direct = !scope_->parent && scope_->comprehensions.empty();
    if (g != globals_.end() && (!direct || bound_.count(name))) return g->second;
    auto p = predeclared_.find(name);
    if (p != predeclared_.end()) return p->second;
    auto u = universe_.find(name);
    if (u != universe_.end()) return u->second;
    auto uv = universe_values_.find(name);
    if (uv != universe_values_.end()) {
      auto b = std::make_unique<Binding>();
      b->scope = Scope::kUniverse;
      b->name = name;
      b->universe = uv->second;
      Binding* raw = b.get();
      universe_[name] = raw;
      file_.universe.push_back(std::move(b));
      return raw;
    }
    return nullptr;
  }

  void use(Ident& id) {
    id.binding = lookup(id.name);
    if (!id.binding) {
      undefined(id.pos, id.name);
      id.binding = &undefined_;
    }
  }

  // Binds an assignment target in the current scope.
  void bind(Ident& id) {
    if (!scope_->comprehensions.empty()) {
      auto& c = scope_->comprehensions.back();
      auto it = c.find(id.name);
      if (it != c.end()) {
        id.binding = it->second;
        return;
      }
    }
    if (!scope_->parent) {
      id.binding = global(id.name);
      bound_.insert(id.name);
      return;
    }
    id.binding = scope_->locals.at(id.name);
  }

  // The targets of an assignment, a for loop or a comprehension clause: names are bound, the
  // operands of x[i] and x.f resolved; anything else is an error (starlark-go's resolver, which
  // names the syntax node's Go type). `aug`: the target of an augmented assignment.
  void assign(Expr& e, bool aug = false) {
    switch (e.kind) {
      case ExprKind::kIdent:
        bind(static_cast<Ident&>(e));
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
        error(e.pos, "can't assign to " + node_name(e));
        return;
    }
  }

  static std::string node_name(const Expr& e) {
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
        bind(*d.name);
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
        ++scope_->loop_depth;
        resolve_block(f.body);
        --scope_->loop_depth;
        return;
      }
      case StmtKind::kWhile: {
        auto& w = static_cast<WhileStmt&>(s);
        expr(*w.cond);
        ++scope_->loop_depth;
        resolve_block(w.body);
        --scope_->loop_depth;
        return;
      }
      case StmtKind::kReturn: {
        auto& r = static_cast<ReturnStmt&>(s);
        if (!scope_->parent) error(s.pos, "return statement not within a function");
        if (r.result) expr(*r.result);
        return;
      }
      case StmtKind::kBreak:
      case StmtKind::kContinue:
        if (scope_->loop_depth == 0)
          error(s.pos,
                std::string(s.kind == StmtKind::kBreak ? "break" : "continue") + " not in a loop");
        return;
      case StmtKind::kLoad: {
        auto& l = static_cast<LoadStmt&>(s);
        if (scope_->parent) {
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
        for (auto& id : l.to) bind(*id);
        return;
      }
    }
  }

  void function(Function& fn) {
    // Defaults are evaluated in the enclosing scope.
    for (auto& p : fn.params) {
      if (p.default_value) expr(*p.default_value);
    }
    FunctionScope fs;
    fs.fn = &fn;
    fs.parent = scope_;
    FunctionScope* saved = scope_;
    scope_ = &fs;
    push_block(true);
    // Layout: named parameters, then *args, then **kwargs.
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
    // Then every name the body binds.
    std::vector<std::string> names;
    collect_names(fn.body, names);
    for (const auto& n : names) {
      if (!fs.locals.count(n)) fs.locals[n] = new_local(fn, n);
    }
    resolve_block(fn.body);
    pop_block();
    scope_ = saved;
    finish_function(fn);
  }

  void declare_param(FunctionScope& fs, Param& p, Pos at) {
    if (fs.locals.count(p.name)) {
      error(at, "duplicate parameter: " + p.name);
      p.binding = fs.locals[p.name];
      return;
    }
    p.binding = new_local(*fs.fn, p.name);
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
    fn.entry_pos = fn.pos;
    if (fn.ctx_inserted) {
      // ytt's inserted start_ctx call has no position and its lookup clears the def's, so a
      // frame of the function that fails before its first operation (argument binding)
      // points at the first operation of the original body that has one, or nowhere.
      fn.entry_pos = Pos{};
      for (size_t i = 1; i < fn.body.size(); ++i) {
        if (auto p = first_pos(*fn.body[i])) {
          fn.entry_pos = *p;
          break;
        }
      }
    } else if (!fn.body.empty()) {
      if (const Ident* id = first_leaf_stmt(*fn.body.front())) {
        if (id->binding && id->binding->scope != Scope::kUniverse &&
            id->binding->scope != Scope::kUnresolved)
          fn.entry_pos = id->pos;
      }
    }
  }

  // The position of the first operation that has one, in compile order: a lookup of a
  // non-builtin name, or a call, an operator, an attribute or an index.
  static std::optional<Pos> first_pos(const Block& b) {
    for (const auto& s : b) {
      if (auto p = first_pos(*s)) return p;
    }
    return std::nullopt;
  }

  static std::optional<Pos> first_pos(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::kExpr:
        return first_pos(static_cast<const ExprStmt&>(s).x.get());
      case StmtKind::kAssign:
      case StmtKind::kAugAssign: {
        auto& a = static_cast<const AssignStmt&>(s);
        if (auto p = first_pos(a.rhs.get())) return p;
        return first_pos(a.lhs.get());
      }
      case StmtKind::kReturn:
        return first_pos(static_cast<const ReturnStmt&>(s).result.get());
      case StmtKind::kIf: {
        auto& i = static_cast<const IfStmt&>(s);
        if (auto p = first_pos(i.cond.get())) return p;
        if (auto p = first_pos(i.then)) return p;
        return first_pos(i.els);
      }
      case StmtKind::kFor: {
        auto& f = static_cast<const ForStmt&>(s);
        if (auto p = first_pos(f.x.get())) return p;
        return f.pos;
      }
      case StmtKind::kWhile: {
        auto& w = static_cast<const WhileStmt&>(s);
        if (auto p = first_pos(w.cond.get())) return p;
        return first_pos(w.body);
      }
      default:
        return std::nullopt;
    }
  }

  static std::optional<Pos> first_pos(const Expr* e) {
    if (!e) return std::nullopt;
    switch (e->kind) {
      case ExprKind::kIdent: {
        auto* id = static_cast<const Ident*>(e);
        if (id->binding && id->binding->scope == Scope::kUniverse) return std::nullopt;
        return id->pos;
      }
      case ExprKind::kLiteral:
        return std::nullopt;
      case ExprKind::kParen:
        return first_pos(static_cast<const ParenExpr*>(e)->x.get());
      case ExprKind::kList:
      case ExprKind::kTuple:
        for (const auto& x : static_cast<const ListExpr*>(e)->items) {
          if (auto p = first_pos(x.get())) return p;
        }
        return std::nullopt;
      case ExprKind::kCall: {
        auto* c = static_cast<const CallExpr*>(e);
        if (auto p = first_pos(c->fn.get())) return p;
        for (const auto& a : c->args) {
          if (auto p = first_pos(a.value.get())) return p;
        }
        return c->pos;
      }
      case ExprKind::kDot:
        if (auto p = first_pos(static_cast<const DotExpr*>(e)->x.get())) return p;
        return e->pos;
      case ExprKind::kIndex:
        if (auto p = first_pos(static_cast<const IndexExpr*>(e)->x.get())) return p;
        if (auto p = first_pos(static_cast<const IndexExpr*>(e)->index.get())) return p;
        return e->pos;
      case ExprKind::kBinary:
        if (auto p = first_pos(static_cast<const Binary*>(e)->x.get())) return p;
        if (auto p = first_pos(static_cast<const Binary*>(e)->y.get())) return p;
        return e->pos;
      default:
        return e->pos;
    }
  }

  static const Ident* first_leaf(const Expr* e) {
    while (e) {
      switch (e->kind) {
        case ExprKind::kIdent:
          return static_cast<const Ident*>(e);
        case ExprKind::kBinary:
          e = static_cast<const Binary*>(e)->x.get();
          break;
        case ExprKind::kUnary:
          e = static_cast<const Unary*>(e)->x.get();
          break;
        case ExprKind::kCall:
          e = static_cast<const CallExpr*>(e)->fn.get();
          break;
        case ExprKind::kIndex:
          e = static_cast<const IndexExpr*>(e)->x.get();
          break;
        case ExprKind::kSlice:
          e = static_cast<const SliceExpr*>(e)->x.get();
          break;
        case ExprKind::kDot:
          e = static_cast<const DotExpr*>(e)->x.get();
          break;
        case ExprKind::kParen:
          e = static_cast<const ParenExpr*>(e)->x.get();
          break;
        case ExprKind::kCond:
          e = static_cast<const CondExpr*>(e)->cond.get();
          break;
        case ExprKind::kList:
        case ExprKind::kTuple: {
          const auto& items = static_cast<const ListExpr*>(e)->items;
          e = items.empty() ? nullptr : items.front().get();
          break;
        }
        case ExprKind::kDict: {
          const auto& en = static_cast<const DictExpr*>(e)->entries;
          e = en.empty() ? nullptr : en.front().key.get();
          break;
        }
        case ExprKind::kComprehension:
          e = static_cast<const Comprehension*>(e)->clauses.front().x.get();
          break;
        default:
          return nullptr;
      }
    }
    return nullptr;
  }

  static const Ident* first_leaf_stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::kExpr:
        return first_leaf(static_cast<const ExprStmt&>(s).x.get());
      case StmtKind::kAssign:
        return first_leaf(static_cast<const AssignStmt&>(s).rhs.get());
      case StmtKind::kAugAssign:
        return first_leaf(static_cast<const AssignStmt&>(s).lhs.get());
      case StmtKind::kReturn:
        return first_leaf(static_cast<const ReturnStmt&>(s).result.get());
      case StmtKind::kIf:
        return first_leaf(static_cast<const IfStmt&>(s).cond.get());
      case StmtKind::kWhile:
        return first_leaf(static_cast<const WhileStmt&>(s).cond.get());
      case StmtKind::kFor:
        return first_leaf(static_cast<const ForStmt&>(s).x.get());
      default:
        return nullptr;
    }
  }

  // ---- Expressions ----

  void expr(Expr& e) {
    switch (e.kind) {
      case ExprKind::kIdent:
        use(static_cast<Ident&>(e));
        return;
      case ExprKind::kLiteral:
        return;
      case ExprKind::kUnary:
        expr(*static_cast<Unary&>(e).x);
        return;
      case ExprKind::kBinary: {
        auto& b = static_cast<Binary&>(e);
        expr(*b.x);
        expr(*b.y);
        return;
      }
      case ExprKind::kCall:
        call(static_cast<CallExpr&>(e));
        return;
      case ExprKind::kIndex: {
        auto& i = static_cast<IndexExpr&>(e);
        expr(*i.x);
        expr(*i.index);
        return;
      }
      case ExprKind::kSlice: {
        auto& s = static_cast<SliceExpr&>(e);
        expr(*s.x);
        if (s.lo) expr(*s.lo);
        if (s.hi) expr(*s.hi);
        if (s.step) expr(*s.step);
        return;
      }
      case ExprKind::kDot:
        expr(*static_cast<DotExpr&>(e).x);
        return;
      case ExprKind::kList:
      case ExprKind::kTuple:
        for (auto& x : static_cast<ListExpr&>(e).items) expr(*x);
        return;
      case ExprKind::kDict:
        for (auto& en : static_cast<DictExpr&>(e).entries) {
          expr(*en.key);
          expr(*en.value);
        }
        return;
      case ExprKind::kComprehension:
        comprehension(static_cast<Comprehension&>(e));
        return;
      case ExprKind::kLambda:
        function(*static_cast<LambdaExpr&>(e).fn);
        return;
      case ExprKind::kCond: {
        auto& c = static_cast<CondExpr&>(e);
        expr(*c.cond);
        expr(*c.then);
        expr(*c.els);
        return;
      }
      case ExprKind::kParen:
        expr(*static_cast<ParenExpr&>(e).x);
        return;
    }
  }

  void declare_comprehension_vars(Expr& vars) {
    std::vector<const Ident*> ids;
    collect_targets(vars, ids);
    auto& c = scope_->comprehensions.back();
    for (auto* id : ids) {
      if (!c.count(id->name)) c[id->name] = new_local(*scope_->fn, id->name);
    }
    assign(vars);
  }

  void comprehension(Comprehension& c) {
    // The first iterable is evaluated in the enclosing scope.
    expr(*c.clauses.front().x);
    push_block(false);
    scope_->comprehensions.emplace_back();
    declare_comprehension_vars(*c.clauses.front().vars);
    for (size_t i = 1; i < c.clauses.size(); ++i) {
      Clause& cl = c.clauses[i];
      expr(*cl.x);
      if (cl.is_for) declare_comprehension_vars(*cl.vars);
    }
    expr(*c.body);
    if (c.dict_value) expr(*c.dict_value);
    scope_->comprehensions.pop_back();
    pop_block();
  }

  File& file_;
  std::vector<Problem>& problems_;
  FunctionScope* scope_ = nullptr;
  LexBlock file_block_;
  LexBlock* env_ = nullptr;
  std::unordered_map<std::string, Binding*> globals_;
  std::unordered_set<std::string> bound_;  // globals bound so far, in text order
  std::unordered_map<std::string, Binding*> predeclared_;
  std::unordered_map<std::string, Binding*> universe_;
  std::unordered_map<std::string, Value> universe_values_;
  Binding undefined_;
};

}  // namespace

void resolve(File& file, const std::vector<std::string>& predeclared,
             std::vector<Problem>& problems) {
  Resolver(file, predeclared, problems).run();
}

}  // namespace hintkit::starlark

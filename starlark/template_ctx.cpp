// ytt's rewrite of a compiled template's program before it runs: a def whose body builds YAML
// (calls the start-node or set-node instruction) gets its own evaluation context, so calling
// it returns the fragment it built. Such a def starts with `start_ctx(<dialect>)` and ends
// with `return end_ctx()`; each `return X` met in its body *after* the first node instruction
// becomes `return end_ctx(X)` (ytt decides while walking, so an earlier return stays as it is).
// The dialect is the one named by the last `set_ctx_type("...")` call walked so far.
#include "starlark/template_ctx.h"

#include <vector>

#include "starlark/walk.h"

namespace hintkit::starlark {

namespace {

// Visits the tree through `walk` (starlark/walk.h); ytt's pass skips assignment targets, loop
// and comprehension variables, load statements and a lambda's parameters, so those are left out
// here too.
class TemplateCtxPass {
 public:
  explicit TemplateCtxPass(const TemplateOps& ops) : ops_(ops) {}

  void run(Block& stmts) { walk(stmts, *this); }

  // Whether `walk` goes on into the statement's children.
  bool operator()(Stmt& s) {
    switch (s.kind) {
      case StmtKind::kAssign:
      case StmtKind::kAugAssign:
        walk(*static_cast<AssignStmt&>(s).rhs, *this);
        return false;
      case StmtKind::kDef:
        function(*static_cast<DefStmt&>(s).fn);
        return false;
      case StmtKind::kFor: {
        auto& f = static_cast<ForStmt&>(s);
        walk(*f.x, *this);
        walk(f.body, *this);
        return false;
      }
      case StmtKind::kReturn: {
        auto& r = static_cast<ReturnStmt&>(s);
        if (uses_.empty()) return true;
        if (uses_.back()) {
          auto call = end_ctx_call(r.pos);
          if (r.result)
            call->args.push_back(Arg{Arg::kPositional, {}, {}, {}, std::move(r.result)});
          r.result = std::move(call);
        }
        return false;
      }
      case StmtKind::kLoad:
        return false;
      default:
        return true;
    }
  }

  bool operator()(Expr& e) {
    switch (e.kind) {
      case ExprKind::kIdent: {
        const std::string& n = static_cast<Ident&>(e).name;
        if ((n == ops_.start_node || n == ops_.set_node) && !uses_.empty()) uses_.back() = true;
        return false;
      }
      case ExprKind::kCall: {
        auto& c = static_cast<CallExpr&>(e);
        if (c.fn->kind == ExprKind::kIdent &&
            static_cast<Ident&>(*c.fn).name == ops_.set_ctx_type && !c.args.empty() &&
            c.args[0].value && c.args[0].value->kind == ExprKind::kLiteral) {
          ctx_type_ = static_cast<Literal&>(*c.args[0].value).value;
        }
        return true;
      }
      case ExprKind::kComprehension: {
        auto& c = static_cast<Comprehension&>(e);
        for (auto& cl : c.clauses) walk(*cl.x, *this);
        walk(*c.body, *this);
        if (c.dict_value) walk(*c.dict_value, *this);
        return false;
      }
      case ExprKind::kLambda:
        // a lambda's body is one expression: its implicit return is never rewritten
        for (auto& s : static_cast<LambdaExpr&>(e).fn->body) {
          if (s->kind != StmtKind::kReturn) continue;
          if (auto& result = static_cast<ReturnStmt&>(*s).result) walk(*result, *this);
        }
        return false;
      default:
        return true;
    }
  }

 private:
  void function(Function& fn) {
    uses_.push_back(false);
    for (auto& p : fn.params) {
      if (p.default_value) walk(*p.default_value, *this);
    }
    walk(fn.body, *this);
    if (uses_.back()) {
      fn.ctx_inserted = true;
      auto start =
          std::make_unique<CallExpr>(fn.pos, std::make_unique<Ident>(fn.pos, ops_.start_ctx));
      start->args.push_back(
          Arg{Arg::kPositional, {}, {}, {}, std::make_unique<Literal>(fn.pos, ctx_type_)});
      Block body;
      body.push_back(std::make_unique<ExprStmt>(fn.pos, std::move(start)));
      for (auto& s : fn.body) body.push_back(std::move(s));
      auto ret = std::make_unique<ReturnStmt>(fn.pos);
      ret->result = end_ctx_call(fn.pos);
      body.push_back(std::move(ret));
      fn.body = std::move(body);
    }
    uses_.pop_back();
  }

  std::unique_ptr<CallExpr> end_ctx_call(Pos p) {
    return std::make_unique<CallExpr>(p, std::make_unique<Ident>(p, ops_.end_ctx));
  }

  const TemplateOps& ops_;
  std::vector<bool> uses_;  // per enclosing def: whether it builds nodes
  Value ctx_type_ = Value::from_string("yaml");
};

}  // namespace

void insert_template_ctxs(File& file, const TemplateOps& ops) {
  TemplateCtxPass(ops).run(file.toplevel->body);
}

}  // namespace hintkit::starlark

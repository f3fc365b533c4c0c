// ytt's rewrite of a compiled template's program before it runs: a def whose body builds YAML
// (calls the start-node or set-node instruction) gets its own evaluation context, so calling
// it returns the fragment it built. Such a def starts with `start_ctx(<dialect>)` and ends
// with `return end_ctx()`; each `return X` met in its body *after* the first node instruction
// becomes `return end_ctx(X)` (ytt decides while walking, so an earlier return stays as it is).
// The dialect is the one named by the last `set_ctx_type("...")` call walked so far.
#include "starlark/template_ctx.h"

#include <vector>

namespace hintkit::starlark {

namespace {

class TemplateCtxPass {
 public:
  explicit TemplateCtxPass(const TemplateOps& ops) : ops_(ops) {}

  void block(Block& stmts) {
    for (auto& s : stmts) stmt(*s);
  }

 private:
  void stmt(Stmt& s) {
    switch (s.kind) {
      case StmtKind::kExpr:
        expr(static_cast<ExprStmt&>(s).x.get());
        break;
      case StmtKind::kIf: {
        auto& i = static_cast<IfStmt&>(s);
        expr(i.cond.get());
        block(i.then);
        block(i.els);
        break;
      }
      case StmtKind::kAssign:
      case StmtKind::kAugAssign:
        expr(static_cast<AssignStmt&>(s).rhs.get());
        break;
      case StmtKind::kDef:
        function(*static_cast<DefStmt&>(s).fn);
        break;
      case StmtKind::kFor: {
        auto& f = static_cast<ForStmt&>(s);
        expr(f.x.get());
        block(f.body);
        break;
      }
      case StmtKind::kWhile: {
        auto& w = static_cast<WhileStmt&>(s);
        expr(w.cond.get());
        block(w.body);
        break;
      }
      case StmtKind::kReturn: {
        auto& r = static_cast<ReturnStmt&>(s);
        if (!uses_.empty()) {
          if (uses_.back()) {
            auto call = end_ctx_call(r.pos);
            if (r.result)
              call->args.push_back(Arg{Arg::kPositional, {}, {}, {}, std::move(r.result)});
            r.result = std::move(call);
          }
        } else if (r.result) {
          expr(r.result.get());
        }
        break;
      }
      case StmtKind::kBreak:
      case StmtKind::kContinue:
      case StmtKind::kLoad:
        break;
    }
  }

  void expr(Expr* e) {
    if (!e) return;
    switch (e->kind) {
      case ExprKind::kIdent: {
        const std::string& n = static_cast<Ident*>(e)->name;
        if ((n == ops_.start_node || n == ops_.set_node) && !uses_.empty()) uses_.back() = true;
        break;
      }
      case ExprKind::kLiteral:
        break;
      case ExprKind::kList:
      case ExprKind::kTuple:
        for (auto& x : static_cast<ListExpr*>(e)->items) expr(x.get());
        break;
      case ExprKind::kCond: {
        auto* c = static_cast<CondExpr*>(e);
        expr(c->cond.get());
        expr(c->then.get());
        expr(c->els.get());
        break;
      }
      case ExprKind::kIndex: {
        auto* i = static_cast<IndexExpr*>(e);
        expr(i->x.get());
        expr(i->index.get());
        break;
      }
      case ExprKind::kSlice: {
        auto* s = static_cast<SliceExpr*>(e);
        expr(s->x.get());
        expr(s->lo.get());
        expr(s->hi.get());
        expr(s->step.get());
        break;
      }
      case ExprKind::kComprehension: {
        auto* c = static_cast<Comprehension*>(e);
        for (auto& cl : c->clauses) expr(cl.x.get());
        expr(c->body.get());
        expr(c->dict_value.get());
        break;
      }
      case ExprKind::kDict:
        for (auto& en : static_cast<DictExpr*>(e)->entries) {
          expr(en.key.get());
          expr(en.value.get());
        }
        break;
      case ExprKind::kUnary:
        expr(static_cast<Unary*>(e)->x.get());
        break;
      case ExprKind::kBinary: {
        auto* b = static_cast<Binary*>(e);
        expr(b->x.get());
        expr(b->y.get());
        break;
      }
      case ExprKind::kDot:
        expr(static_cast<DotExpr*>(e)->x.get());
        break;
      case ExprKind::kCall: {
        auto* c = static_cast<CallExpr*>(e);
        if (c->fn->kind == ExprKind::kIdent &&
            static_cast<Ident*>(c->fn.get())->name == ops_.set_ctx_type && !c->args.empty() &&
            c->args[0].value && c->args[0].value->kind == ExprKind::kLiteral) {
          ctx_type_ = static_cast<Literal*>(c->args[0].value.get())->value;
        }
        expr(c->fn.get());
        for (auto& a : c->args) expr(a.value.get());
        break;
      }
      case ExprKind::kLambda: {
        // a lambda's body is one expression: its implicit return is never rewritten
        auto& fn = *static_cast<LambdaExpr*>(e)->fn;
        for (auto& s : fn.body) {
          if (s->kind == StmtKind::kReturn) expr(static_cast<ReturnStmt&>(*s).result.get());
        }
        break;
      }
      case ExprKind::kParen:
        expr(static_cast<ParenExpr*>(e)->x.get());
        break;
    }
  }

  void function(Function& fn) {
    uses_.push_back(false);
    for (auto& p : fn.params) expr(p.default_value.get());
    block(fn.body);
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
  TemplateCtxPass(ops).block(file.toplevel->body);
}

}  // namespace hintkit::starlark

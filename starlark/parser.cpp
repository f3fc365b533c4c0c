#include "starlark/parser.h"

#include "starlark/scanner.h"
#include "starlark/values.h"

namespace hintkit::starlark {
namespace {

// Tokens of the words Starlark keeps for itself (the reserved ones scan as kIllegal).
constexpr Tok kKeywordToks[] = {Tok::kAnd,  Tok::kBreak,  Tok::kContinue, Tok::kDef,
                                Tok::kElif, Tok::kElse,   Tok::kFor,      Tok::kIf,
                                Tok::kIn,   Tok::kLambda, Tok::kLoad,     Tok::kNot,
                                Tok::kOr,   Tok::kPass,   Tok::kReturn,   Tok::kWhile};

struct SyntaxError {
  Pos pos;
  std::string message;
};

// The token cursor both halves of the parser read: where it is, what it sees, and the
// syntax error it throws.
class TokenStream {
 public:
  explicit TokenStream(std::vector<Token> toks) : toks_(std::move(toks)) {}

 protected:
  const Token& cur() const { return toks_[i_]; }
  Tok tok() const {
    if (toks_[i_].kind == Tok::kError) throw SyntaxError{toks_[i_].pos, toks_[i_].text};
    return toks_[i_].kind;
  }
  Pos pos() const { return toks_[i_].pos; }
  // Where starlark-go reports most syntax errors: its scanner's position (Token::scan_end).
  Pos scan_pos() const { return toks_[i_].scan_end; }
  Tok peek_tok(size_t ahead) const {
    size_t k = std::min(i_ + ahead, toks_.size() - 1);
    return toks_[k].kind;
  }
  Token next() {
    Token t = toks_[i_];
    tok();  // surfaces scan errors at their place in the stream
    if (i_ + 1 < toks_.size()) ++i_;
    return t;
  }
  [[noreturn]] void fail(Pos p, std::string msg) { throw SyntaxError{p, std::move(msg)}; }
  // ytt's parseIdent: a keyword or reserved word gets its own message.
  [[noreturn]] void not_ident() {
    bool keyword = tok() == Tok::kIllegal;
    for (const auto& k : kKeywordToks) keyword = keyword || tok() == k;
    if (keyword) {
      fail(scan_pos(),
           "use of reserved keyword '" + cur().text + "' is not allowed (expected identifier)");
    }
    fail(scan_pos(), "not an identifier");
  }
  [[noreturn]] void want(std::string_view what) {
    fail(scan_pos(), "got " + describe(tok()) + ", want " + std::string(what));
  }
  Pos expect(Tok t) {
    if (tok() != t) want(describe(t));
    Pos p = pos();
    next();
    return p;
  }

  struct NestGuard {
    explicit NestGuard(TokenStream& p) : p(p) {
      if (++p.nesting_ > kMaxNesting) p.fail(p.pos(), "nesting too deep");
    }
    ~NestGuard() { --p.nesting_; }
    TokenStream& p;
  };

  std::vector<Token> toks_;
  size_t i_ = 0;
  int nesting_ = 0;
};

// Expressions (starlark-go parse.go's parseExpr and below), and the parameter lists that
// defs and lambdas share.
class ExprParser : protected TokenStream {
 public:
  using TokenStream::TokenStream;

 protected:
  // ---- Expressions ----

  // expr_list = test {',' test} (a tuple when there is a comma). Outside brackets a trailing
  // comma is an error, as in starlark-go's parseExpr(inParens=false).
  ExprPtr parse_expr_list() {
    Pos p = pos();
    ExprPtr x = parse_test();
    if (tok() != Tok::kComma) return x;
    auto t = std::make_unique<ListExpr>(ExprKind::kTuple, p);
    t->items.push_back(std::move(x));
    while (tok() == Tok::kComma) {
      Pos comma = next().pos;
      if (terminates_list()) fail(comma, "unparenthesized tuple with trailing comma");
      t->items.push_back(parse_test());
    }
    return t;
  }

  // The rest of a bracketed list of items (starlark-go's parseExprs with a trailing comma
  // allowed): any list terminator after a comma ends it, and the caller's expect() reports a
  // wrong one ("got end of file, want ')'").
  void parse_more_items(std::vector<ExprPtr>& items) {
    while (tok() == Tok::kComma) {
      next();
      if (terminates_list()) break;
      items.push_back(parse_test());
    }
  }

  // starlark-go's terminatesExprList.
  bool terminates_list() const {
    switch (toks_[i_].kind) {
      case Tok::kNewline:
      case Tok::kEof:
      case Tok::kEq:
      case Tok::kRParen:
      case Tok::kRBrack:
      case Tok::kRBrace:
      case Tok::kSemi:
        return true;
      default:
        return false;
    }
  }

  ExprPtr parse_test() {
    NestGuard g(*this);
    if (tok() == Tok::kLambda) return parse_lambda(true);
    ExprPtr x = parse_binop(0);
    if (tok() == Tok::kIf) {
      Pos p = pos();
      next();
      ExprPtr cond = parse_binop(0);
      if (tok() != Tok::kElse) fail(p, "conditional expression without else clause");
      next();
      ExprPtr els = parse_test();
      return std::make_unique<CondExpr>(p, std::move(cond), std::move(x), std::move(els));
    }
    return x;
  }

  // test without conditional or lambda (comprehension clauses).
  ExprPtr parse_test_nocond() {
    if (tok() == Tok::kLambda) return parse_lambda(false);
    return parse_binop(0);
  }

  ExprPtr parse_lambda(bool allow_cond) {
    Pos p = pos();
    next();
    auto l = std::make_unique<LambdaExpr>(p);
    l->fn->name = "lambda";
    l->fn->pos = p;
    parse_params(*l->fn);
    expect(Tok::kColon);
    ExprPtr body = allow_cond ? parse_test() : parse_test_nocond();
    auto r = std::make_unique<ReturnStmt>(body->pos);
    r->result = std::move(body);
    l->fn->body.push_back(std::move(r));
    return l;
  }

  // Precedence levels, low to high: or, and, not, comparisons/in, |, ^, &, shifts, +-, */%.
  static int precedence(Tok t) {
    switch (t) {
      case Tok::kOr:
        return 0;
      case Tok::kAnd:
        return 1;
      case Tok::kEqEq:
      case Tok::kNe:
      case Tok::kLt:
      case Tok::kGt:
      case Tok::kLe:
      case Tok::kGe:
      case Tok::kIn:
      case Tok::kNot:
        return 3;
      case Tok::kPipe:
        return 4;
      case Tok::kCaret:
        return 5;
      case Tok::kAmp:
        return 6;
      case Tok::kShl:
      case Tok::kShr:
        return 7;
      case Tok::kPlus:
      case Tok::kMinus:
        return 8;
      case Tok::kStar:
      case Tok::kSlash:
      case Tok::kSlashSlash:
      case Tok::kPercent:
        return 9;
      default:
        return -1;
    }
  }

  static BinOp binop_of(Tok t) {
    switch (t) {
      case Tok::kOr:
        return BinOp::kOr;
      case Tok::kAnd:
        return BinOp::kAnd;
      case Tok::kEqEq:
        return BinOp::kEq;
      case Tok::kNe:
        return BinOp::kNe;
      case Tok::kLt:
        return BinOp::kLt;
      case Tok::kGt:
        return BinOp::kGt;
      case Tok::kLe:
        return BinOp::kLe;
      case Tok::kGe:
        return BinOp::kGe;
      case Tok::kIn:
        return BinOp::kIn;
      case Tok::kNot:
        return BinOp::kNotIn;
      case Tok::kPipe:
        return BinOp::kPipe;
      case Tok::kCaret:
        return BinOp::kCaret;
      case Tok::kAmp:
        return BinOp::kAmp;
      case Tok::kShl:
        return BinOp::kShl;
      case Tok::kShr:
        return BinOp::kShr;
      case Tok::kPlus:
        return BinOp::kPlus;
      case Tok::kMinus:
        return BinOp::kMinus;
      case Tok::kStar:
        return BinOp::kStar;
      case Tok::kSlash:
        return BinOp::kSlash;
      case Tok::kSlashSlash:
        return BinOp::kSlashSlash;
      default:
        return BinOp::kPercent;
    }
  }

  ExprPtr parse_binop(int min_prec) {
    NestGuard g(*this);
    ExprPtr x;
    if (min_prec <= 2 && tok() == Tok::kNot) {
      Pos p = pos();
      next();
      ExprPtr y = parse_binop(2);
      x = std::make_unique<Unary>(p, UnOp::kNot, std::move(y));
    } else {
      x = parse_unary();
    }
    for (int prec = precedence(tok()); prec >= min_prec && prec >= 0;) {
      // climb: consume all operators of level >= min_prec
      Tok op_tok = tok();
      int op_prec = precedence(op_tok);
      if (op_prec < min_prec || op_prec < 0) break;
      if (op_tok == Tok::kNot && peek_tok(1) != Tok::kIn) {
        next();  // after an operand, `not` must start `not in` (starlark-go)
        want("in");
      }
      Pos op_pos = pos();
      next();
      if (op_tok == Tok::kNot) next();  // "not in"
      ExprPtr y = parse_binop(op_prec + 1);
      x = std::make_unique<Binary>(op_pos, binop_of(op_tok), std::move(x), std::move(y));
      if (op_prec == 3 && precedence(tok()) == 3 &&
          !(tok() == Tok::kNot && peek_tok(1) != Tok::kIn)) {
        std::string a = op_tok == Tok::kNot ? "not in" : describe_op(op_tok);
        std::string b = tok() == Tok::kNot ? "not in" : describe_op(tok());
        fail(scan_pos(), a + " does not associate with " + b + " (use parens)");
      }
      prec = precedence(tok());
    }
    return x;
  }

  static std::string describe_op(Tok t) {
    std::string d = describe(t);
    if (d.size() >= 2 && d.front() == '\'') return d.substr(1, d.size() - 2);
    return d;
  }

  ExprPtr parse_unary() {
    NestGuard g(*this);
    Pos p = pos();
    switch (tok()) {
      case Tok::kMinus:
        next();
        return std::make_unique<Unary>(p, UnOp::kMinus, parse_unary());
      case Tok::kPlus:
        next();
        return std::make_unique<Unary>(p, UnOp::kPlus, parse_unary());
      case Tok::kTilde:
        next();
        return std::make_unique<Unary>(p, UnOp::kTilde, parse_unary());
      default:
        return parse_primary_with_suffix();
    }
  }

  ExprPtr parse_primary_with_suffix() {
    ExprPtr x = parse_primary();
    while (true) {
      Pos p = pos();
      switch (tok()) {
        case Tok::kDot: {
          next();
          if (tok() != Tok::kIdent) not_ident();
          Token id = next();
          x = std::make_unique<DotExpr>(id.pos, std::move(x), id.text);
          break;
        }
        case Tok::kLBrack:
          x = parse_index(std::move(x));
          break;
        case Tok::kLParen:
          x = parse_call(std::move(x));
          break;
        default:
          (void)p;
          return x;
      }
    }
  }

  ExprPtr parse_index(ExprPtr x) {
    Pos p = pos();
    next();
    ExprPtr lo, hi, step;
    if (tok() != Tok::kColon) {
      lo = parse_expr_list();
      if (tok() == Tok::kRBrack) {
        next();
        return std::make_unique<IndexExpr>(p, std::move(x), std::move(lo));
      }
    }
    auto s = std::make_unique<SliceExpr>(p, std::move(x));
    s->lo = std::move(lo);
    expect(Tok::kColon);
    if (tok() != Tok::kColon && tok() != Tok::kRBrack) s->hi = parse_test();
    if (tok() == Tok::kColon) {
      next();
      if (tok() != Tok::kRBrack) s->step = parse_test();
    }
    expect(Tok::kRBrack);
    return s;
  }

  // starlark-go's parseCallSuffix and parseArgs: `name=value` is parsed as a test followed by
  // '=', and a trailing comma is allowed only before any *args or **kwargs.
  ExprPtr parse_call(ExprPtr fn) {
    Pos p = pos();
    next();
    auto c = std::make_unique<CallExpr>(p, std::move(fn));
    bool stars = false;
    while (tok() != Tok::kRParen && tok() != Tok::kEof) {
      if (!c->args.empty()) expect(Tok::kComma);
      if (tok() == Tok::kRParen) {
        if (stars) want("argument");
        break;
      }
      Arg a;
      a.pos = pos();
      if (tok() == Tok::kStar || tok() == Tok::kStarStar) {
        stars = true;
        a.kind = tok() == Tok::kStar ? Arg::kStar : Arg::kStarStar;
        next();
        c->simple = false;
        a.value = parse_test();
      } else {
        ExprPtr x = parse_test();
        if (tok() == Tok::kEq) {
          if (x->kind != ExprKind::kIdent)
            fail(scan_pos(), "keyword argument must have form name=expr");
          next();
          a.kind = Arg::kNamed;
          a.name = static_cast<const Ident&>(*x).name;
          a.name_value = Value::from_string(a.name);
          a.value = parse_test();
        } else {
          a.value = std::move(x);
        }
      }
      c->args.push_back(std::move(a));
    }
    expect(Tok::kRParen);
    return c;
  }

  ExprPtr parse_primary() {
    NestGuard g(*this);
    Pos p = pos();
    switch (tok()) {
      case Tok::kIdent: {
        Token t = next();
        return std::make_unique<Ident>(p, t.text);
      }
      case Tok::kInt:
      case Tok::kFloat: {
        Token t = next();
        return std::make_unique<Literal>(p, t.literal);
      }
      case Tok::kString: {
        Token t = next();
        return std::make_unique<Literal>(p, Value::from_string(t.text));
      }
      case Tok::kLParen: {
        next();
        if (tok() == Tok::kRParen) {
          next();
          return std::make_unique<ListExpr>(ExprKind::kTuple, p);
        }
        ExprPtr x = parse_test();
        if (tok() == Tok::kComma) {
          auto t = std::make_unique<ListExpr>(ExprKind::kTuple, p);
          t->items.push_back(std::move(x));
          parse_more_items(t->items);
          expect(Tok::kRParen);
          return t;
        }
        expect(Tok::kRParen);
        return std::make_unique<ParenExpr>(p, std::move(x));
      }
      case Tok::kLBrack:
        return parse_list();
      case Tok::kLBrace:
        return parse_dict();
      case Tok::kMinus:
      case Tok::kPlus:
      case Tok::kTilde:
        return parse_unary();
      default:
        want("primary expression");
    }
  }

  ExprPtr parse_list() {
    Pos p = pos();
    next();
    if (tok() == Tok::kRBrack) {
      next();
      return std::make_unique<ListExpr>(ExprKind::kList, p);
    }
    ExprPtr first = parse_test();
    if (tok() == Tok::kFor) {
      auto c = std::make_unique<Comprehension>(p, false);
      c->body = std::move(first);
      parse_clauses(*c, Tok::kRBrack);
      expect(Tok::kRBrack);
      return c;
    }
    auto l = std::make_unique<ListExpr>(ExprKind::kList, p);
    l->items.push_back(std::move(first));
    parse_more_items(l->items);
    expect(Tok::kRBrack);
    return l;
  }

  ExprPtr parse_dict() {
    Pos p = pos();
    next();
    if (tok() == Tok::kRBrace) {
      next();
      return std::make_unique<DictExpr>(p);
    }
    ExprPtr k = parse_test();
    expect(Tok::kColon);
    ExprPtr v = parse_test();
    if (tok() == Tok::kFor) {
      auto c = std::make_unique<Comprehension>(p, true);
      c->body = std::move(k);
      c->dict_value = std::move(v);
      parse_clauses(*c, Tok::kRBrace);
      expect(Tok::kRBrace);
      return c;
    }
    auto d = std::make_unique<DictExpr>(p);
    d->entries.push_back({std::move(k), std::move(v)});
    while (tok() == Tok::kComma) {
      next();
      if (tok() == Tok::kRBrace) break;
      ExprPtr k2 = parse_test();
      expect(Tok::kColon);
      ExprPtr v2 = parse_test();
      d->entries.push_back({std::move(k2), std::move(v2)});
    }
    expect(Tok::kRBrace);
    return d;
  }

  // starlark-go's parseComprehensionSuffix: clauses up to the closing bracket, which the
  // caller consumes.
  void parse_clauses(Comprehension& c, Tok end) {
    while (tok() != end) {
      Clause cl;
      cl.pos = pos();
      if (tok() == Tok::kFor) {
        next();
        cl.is_for = true;
        cl.vars = parse_loop_vars();
        expect(Tok::kIn);
        cl.x = parse_binop(0);  // starlark-go: not a lambda here (nor a conditional)
      } else if (tok() == Tok::kIf) {
        next();
        cl.is_for = false;
        cl.x = parse_test_nocond();
      } else {
        want(describe(end) + ", for, or if");
      }
      c.clauses.push_back(std::move(cl));
    }
  }

  // starlark-go's parseParams: up to ')' or ':' (the caller wants the one it needs); a
  // trailing comma only before any * or ** parameter.
  void parse_params(Function& fn) {
    bool stars = false;
    while (tok() != Tok::kRParen && tok() != Tok::kColon && tok() != Tok::kEof) {
      if (!fn.params.empty()) expect(Tok::kComma);
      if (tok() == Tok::kRParen) {
        if (stars) want("parameter");
        break;
      }
      Param prm;
      prm.pos = pos();
      if (tok() == Tok::kStar || tok() == Tok::kStarStar) {
        stars = true;
        prm.kind = tok() == Tok::kStar ? Param::kStar : Param::kStarStar;
        prm.op_pos = next().pos;
        if (prm.kind == Param::kStarStar || tok() == Tok::kIdent) {
          if (tok() != Tok::kIdent) not_ident();
          prm.name_pos = pos();
          prm.name = next().text;
        }
      } else {
        if (tok() != Tok::kIdent) not_ident();
        prm.name_pos = pos();
        prm.name = next().text;
        prm.kind = Param::kNormal;
        if (tok() == Tok::kEq) {
          prm.op_pos = next().pos;
          prm.kind = Param::kDefault;
          prm.default_value = parse_test();
        }
      }
      fn.params.push_back(std::move(prm));
    }
  }

  // loop_vars = primary {',' primary}
  ExprPtr parse_loop_vars() {
    Pos p = pos();
    ExprPtr first = parse_primary_with_suffix();
    if (tok() != Tok::kComma) {
      return first;
    }
    auto t = std::make_unique<ListExpr>(ExprKind::kTuple, p);
    t->items.push_back(std::move(first));
    while (tok() == Tok::kComma) {
      next();
      if (terminates_list()) break;  // not `in`: "for x, in y" is an error, as in starlark-go
      t->items.push_back(parse_primary_with_suffix());
    }
    return t;
  }
};

// Statements and blocks (starlark-go parse.go's parseStmt and above): the entry point.
class Parser : public ExprParser {
 public:
  using ExprParser::ExprParser;

  Block parse_file() {
    Block body;
    while (tok() != Tok::kEof) {
      if (tok() == Tok::kNewline) {
        next();
        continue;
      }
      parse_statement(body);
    }
    return body;
  }

 private:
  // ---- Statements ----

  void parse_statement(Block& out) {
    NestGuard g(*this);
    switch (tok()) {
      case Tok::kDef:
        out.push_back(parse_def());
        return;
      case Tok::kIf:
        out.push_back(parse_if());
        return;
      case Tok::kFor:
        out.push_back(parse_for());
        return;
      case Tok::kWhile:
        out.push_back(parse_while());
        return;
      default:
        parse_simple(out);
        return;
    }
  }

  void parse_simple(Block& out) {
    while (true) {
      out.push_back(parse_small());
      if (tok() != Tok::kSemi) break;
      next();
      if (tok() == Tok::kNewline || tok() == Tok::kEof) break;
    }
    if (tok() == Tok::kEof) return;
    if (tok() != Tok::kNewline) want("newline");
    next();
  }

  StmtPtr parse_small() {
    Pos p = pos();
    switch (tok()) {
      case Tok::kReturn: {
        next();
        auto r = std::make_unique<ReturnStmt>(p);
        if (tok() != Tok::kNewline && tok() != Tok::kEof && tok() != Tok::kSemi)
          r->result = parse_expr_list();
        return r;
      }
      case Tok::kBreak:
        next();
        return std::make_unique<BranchStmt>(StmtKind::kBreak, p);
      case Tok::kContinue:
        next();
        return std::make_unique<BranchStmt>(StmtKind::kContinue, p);
      case Tok::kLoad:
        return parse_load();
      default:
        break;
    }
    ExprPtr x = parse_expr_list();
    Tok t = tok();
    if (t == Tok::kEq) {
      Pos op = pos();
      next();
      auto a = std::make_unique<AssignStmt>(StmtKind::kAssign, p);
      a->op_pos = op;
      a->lhs = std::move(x);
      a->rhs = parse_expr_list();
      return a;
    }
    BinOp op;
    if (aug_op(t, &op)) {
      Pos opp = pos();
      next();
      auto a = std::make_unique<AssignStmt>(StmtKind::kAugAssign, p);
      a->op_pos = opp;
      a->op = op;
      a->lhs = std::move(x);
      a->rhs = parse_expr_list();
      return a;
    }
    return std::make_unique<ExprStmt>(p, std::move(x));
  }

  static bool aug_op(Tok t, BinOp* op) {
    switch (t) {
      case Tok::kPlusEq:
        *op = BinOp::kPlus;
        return true;
      case Tok::kMinusEq:
        *op = BinOp::kMinus;
        return true;
      case Tok::kStarEq:
        *op = BinOp::kStar;
        return true;
      case Tok::kSlashEq:
        *op = BinOp::kSlash;
        return true;
      case Tok::kSlashSlashEq:
        *op = BinOp::kSlashSlash;
        return true;
      case Tok::kPercentEq:
        *op = BinOp::kPercent;
        return true;
      case Tok::kAmpEq:
        *op = BinOp::kAmp;
        return true;
      case Tok::kPipeEq:
        *op = BinOp::kPipe;
        return true;
      case Tok::kCaretEq:
        *op = BinOp::kCaret;
        return true;
      case Tok::kShlEq:
        *op = BinOp::kShl;
        return true;
      case Tok::kShrEq:
        *op = BinOp::kShr;
        return true;
      default:
        return false;
    }
  }

  // starlark-go's parseLoadStmt, with its messages.
  StmtPtr parse_load() {
    Pos p = pos();
    next();
    auto l = std::make_unique<LoadStmt>(p);
    Pos lparen = expect(Tok::kLParen);
    if (tok() != Tok::kString)
      fail(scan_pos(), "first operand of load statement must be a string literal");
    l->module = next().text;
    while (tok() != Tok::kRParen && tok() != Tok::kEof) {
      expect(Tok::kComma);
      if (tok() == Tok::kRParen) break;  // a trailing comma
      if (tok() == Tok::kString) {
        Token t = next();
        l->to.push_back(std::make_unique<Ident>(t.pos, t.text));
        l->from.push_back(t.text);
        l->from_pos.push_back(t.pos);
      } else if (tok() == Tok::kIdent) {
        Token id = next();
        if (tok() != Tok::kEq) {
          fail(scan_pos(), "load operand must be \"" + id.text + "\" or " + id.text +
                               "=\"originalname\" (want '=' after " + id.text + ")");
        }
        next();
        if (tok() != Tok::kString) {
          fail(scan_pos(),
               "original name of loaded symbol must be quoted: " + id.text + "=\"originalname\"");
        }
        Token t = next();
        l->to.push_back(std::make_unique<Ident>(id.pos, id.text));
        l->from.push_back(t.text);
        l->from_pos.push_back(t.pos);
      } else {
        fail(scan_pos(),
             "load operand must be \"name\" or localname=\"name\" (got " + describe(tok()) + ")");
      }
    }
    expect(Tok::kRParen);
    if (l->to.empty()) fail(lparen, "load statement must import at least 1 symbol");
    return l;
  }

  // suite = NEWLINE INDENT {stmt} OUTDENT | simple_stmt
  Block parse_suite() {
    Block body;
    if (tok() == Tok::kNewline) {
      next();
      if (tok() != Tok::kIndent) want("indent");
      next();
      while (tok() != Tok::kOutdent && tok() != Tok::kEof) {
        if (tok() == Tok::kNewline) {
          next();
          continue;
        }
        parse_statement(body);
      }
      if (tok() == Tok::kOutdent) next();
      return body;
    }
    parse_simple(body);
    return body;
  }

  void expect_block_colon() {
    if (tok() != Tok::kColon) {
      want("':'");
    }
    next();
  }

  StmtPtr parse_def() {
    Pos p = pos();
    next();
    auto d = std::make_unique<DefStmt>(p);
    if (tok() != Tok::kIdent) not_ident();
    Token name = next();
    d->name = std::make_unique<Ident>(name.pos, name.text);
    d->fn->name = name.text;
    d->fn->pos = p;
    expect(Tok::kLParen);
    parse_params(*d->fn);
    expect(Tok::kRParen);
    expect_block_colon();
    d->fn->body = parse_suite();
    return d;
  }

  StmtPtr parse_if() {
    Pos p = pos();
    next();
    auto s = std::make_unique<IfStmt>(p);
    s->cond = parse_test();
    expect_block_colon();
    s->then = parse_suite();
    if (tok() == Tok::kElif) {
      s->els.push_back(parse_if());  // elif behaves like else: if ...
    } else if (tok() == Tok::kElse) {
      next();
      expect_block_colon();
      s->els = parse_suite();
    }
    return s;
  }

  StmtPtr parse_for() {
    Pos p = pos();
    next();
    auto s = std::make_unique<ForStmt>(p);
    s->vars = parse_loop_vars();
    expect(Tok::kIn);
    s->x = parse_expr_list();
    expect_block_colon();
    s->body = parse_suite();
    return s;
  }

  StmtPtr parse_while() {
    Pos p = pos();
    next();
    auto s = std::make_unique<WhileStmt>(p);
    s->cond = parse_test();
    expect_block_colon();
    s->body = parse_suite();
    return s;
  }
};

}  // namespace

std::unique_ptr<File> parse(std::string_view file, std::string_view source,
                            std::vector<Problem>& problems) {
  auto f = std::make_unique<File>();
  f->name = std::string(file);
  if (source.size() > kMaxSourceBytes) {
    problems.push_back({"source file too large", f->name, Pos{1, 1}});
    return nullptr;
  }
  size_t start = 0;
  while (start <= source.size()) {
    size_t nl = source.find('\n', start);
    if (nl == std::string_view::npos) {
      f->lines.emplace_back(source.substr(start));
      break;
    }
    f->lines.emplace_back(source.substr(start, nl - start));
    start = nl + 1;
  }
  f->toplevel = std::make_shared<Function>();
  f->toplevel->name = "<toplevel>";
  f->toplevel->pos = Pos{1, 1};
  try {
    Parser p(scan(source));
    f->toplevel->body = p.parse_file();
  } catch (SyntaxError& e) {
    problems.push_back({e.message, f->name, e.pos});
    return nullptr;
  }
  return f;
}

}  // namespace hintkit::starlark

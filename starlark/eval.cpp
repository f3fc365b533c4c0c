// The tree-walking evaluator over the resolved AST, function calls and argument binding, and
// the public Thread / Module API (compile.cpp makes the Programs it runs).
#include "starlark/eval.h"

#include <cstdio>
#include <iostream>

#include "diag/stack.h"
#include "starlark/builtins.h"
#include "starlark/cycles.h"
#include "starlark/operators.h"

namespace hintkit::starlark {

// One activation of a Starlark function (or the top level).
struct Env {
  const Function* fn;
  FunctionObj* closure;  // null at top level
  ModuleEnv* module;
  Value* locals;
  CellPtr* cells;
  Pos pos;
  Value ret;
  Env* caller;  // the activation below in this API call's stack (ThreadState::top)
};

namespace {

// Sets the current thread for the duration of an API call (re-entrant).
struct ThreadScope {
  explicit ThreadScope(ThreadState* t) : saved(g_thread) { g_thread = t; }
  ~ThreadScope() { g_thread = saved; }
  ThreadState* saved;
};

// An API call's own call stack: its activations start from `bottom` (the top level for
// `Thread::exec`, none for `Thread::call`); the caller's stack is back in place when it ends.
struct StackBase {
  StackBase(ThreadState& t, Env* bottom) : t(t), saved(t.top) { t.top = bottom; }
  ~StackBase() { t.top = saved; }
  ThreadState& t;
  Env* saved;
};

enum class Flow { kNormal, kBreak, kContinue, kReturn };

// Recursion keeps a C++ frame of call_function, exec_stmt and eval_call (call_any inlined) per
// Starlark call, and one of eval_call per enclosing call expression: helpers kept out of line
// (`HINTKIT_OFF_PATH`) hold their locals only while they run, so the stack a deep recursion
// needs and the frames a limit error unwinds (50,000 calls deep) stay few and small.
#define HINTKIT_OFF_PATH [[gnu::noinline]]

constexpr size_t kInlineLocals = 8;  // most functions fit; larger ones use the heap
constexpr size_t kInlineArgs = 8;
constexpr size_t kInlineKwargs = 4;

Value eval(Env& env, const Expr& e);
Flow exec_block(Env& env, const Block& body);
HINTKIT_OFF_PATH Value eval_call(Env& env, const CallExpr& c);

// `eval` with a call's frame going straight to eval_call: where a Starlark call's argument,
// return value or operand is itself a call (recursion), there is no frame of eval's between.
[[gnu::always_inline]] inline Value eval_flat(Env& env, const Expr& e) {
  if (e.kind == ExprKind::kCall) return eval_call(env, static_cast<const CallExpr&>(e));
  return eval(env, e);
}

void assign(Env& env, const Expr& target, const Value& v);

[[noreturn]] void unbound_error(const Binding& b) {
  if (b.scope == Scope::kGlobal)
    throw_error("global variable " + b.name + " referenced before assignment");
  throw_error("local variable " + b.name + " referenced before assignment");
}

inline Value& slot(Env& env, const Binding& b) {
  switch (b.scope) {
    case Scope::kLocal:
      return env.locals[b.index];
    case Scope::kCell:
      return env.cells[b.index]->value;
    case Scope::kFree:
      return env.closure->freevars[static_cast<size_t>(b.index)]->value;
    case Scope::kGlobal:
      return env.module->globals[static_cast<size_t>(b.index)];
    case Scope::kPredeclared:
      return env.module->predeclared[static_cast<size_t>(b.index)];
    default:
      break;
  }
  throw_error("internal error: unresolved name " + b.name);
}

inline Value load_ident(Env& env, const Ident& id) {
  const Binding& b = *id.binding;
  if (b.scope == Scope::kUniverse) return b.universe;
  Value& v = slot(env, b);
  if (is_unbound(v)) {
    env.pos = id.pos;
    unbound_error(b);
  }
  return v;
}

// ---- Function calls --------------------------------------------------------------------------

std::string plural(size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

HINTKIT_OFF_PATH void bind_args(Env& env, FunctionObj& f, std::span<const Value> args,
                                std::span<const Kwarg> kwargs) {
  const Function& fn = *f.fn;
  const std::string& name = fn.name;
  size_t npos = static_cast<size_t>(fn.num_positional);
  size_t nnamed = npos + static_cast<size_t>(fn.num_kwonly);
  // Named parameters are the first `nnamed` entries of params (in resolver order).
  std::vector<const Param*> named;
  named.reserve(nnamed);
  const Param* star = nullptr;
  const Param* starstar = nullptr;
  for (const auto& p : fn.params) {
    if (p.kind == Param::kStar) {
      if (!p.name.empty()) star = &p;
    } else if (p.kind == Param::kStarStar) {
      starstar = &p;
    } else {
      named.push_back(&p);
    }
  }
  auto set_param = [&](const Param& p, Value v) { slot(env, *p.binding) = std::move(v); };
  auto param_is_set = [&](const Param& p) { return !is_unbound(slot(env, *p.binding)); };
  if (fn.params.empty() && args.size() + kwargs.size() > 0) {  // keywords count too
    throw_error("function " + name + " accepts no arguments (" +
                std::to_string(args.size() + kwargs.size()) + " given)");
  }

  if (args.size() > npos && !star) {
    if (npos == 0 && fn.num_kwonly == 0 && !starstar && nnamed == 0) {
      throw_error("function " + name + " accepts no arguments (" + std::to_string(args.size()) +
                  " given)");
    }
    bool has_defaults = fn.num_defaults_first < fn.num_positional;
    throw_error("function " + name + " accepts " + (has_defaults ? "at most " : "") +
                plural(npos, "positional argument") + " (" + std::to_string(args.size()) +
                " given)");
  }
  size_t n = std::min(args.size(), npos);
  for (size_t i = 0; i < n; ++i) set_param(*named[i], args[i]);
  if (star) {
    std::vector<Value> rest;
    if (args.size() > npos) rest.assign(args.begin() + static_cast<long>(npos), args.end());
    set_param(*star, tuple_value(std::move(rest)));
  }
  Value kwdict;
  if (starstar) {
    kwdict = new_dict();
    set_param(*starstar, kwdict);
  }
  for (const auto& kw : kwargs) {
    const Param* target = nullptr;
    for (const Param* p : named) {
      if (p->name == kw.name) {
        target = p;
        break;
      }
    }
    if (!target) {
      if (!starstar) {
        throw_error("function " + name + " got an unexpected keyword argument \"" +
                    std::string(kw.name) + "\"");
      }
      Value key = Value::from_string(kw.name);
      if (as_dict(kwdict)->table.find(key)) {
        throw_error("function " + name + " got multiple values for parameter \"" +
                    std::string(kw.name) + "\"");
      }
      as_dict(kwdict)->table.insert(key, kw.value);
      continue;
    }
    if (param_is_set(*target)) {
      throw_error("function " + name + " got multiple values for parameter \"" +
                  std::string(kw.name) + "\"");
    }
    set_param(*target, kw.value);
  }
  // Defaults and missing parameters.
  std::vector<std::string> missing;
  for (size_t i = 0; i < named.size(); ++i) {
    if (param_is_set(*named[i])) continue;
    const Value& d = f.defaults[i];
    if (!is_unbound(d)) {
      set_param(*named[i], d);
    } else {
      missing.push_back(named[i]->name);
    }
  }
  if (!missing.empty()) {
    std::string list;
    for (size_t i = 0; i < missing.size(); ++i) list += (i ? ", " : "") + missing[i];
    throw_error("function " + name + " missing " + plural(missing.size(), "argument") + " (" +
                list + ")");
  }
}

Frame frame_of(const Env& env) {
  return Frame{env.fn->name, env.module->program->file->name, env.pos};
}

// The frames of a limit error with the middle of a long stack replaced by one gap.
std::vector<Frame> limit_stack(std::vector<Frame> frames) {
  constexpr size_t keep = kFramesKeptAtEachEnd;
  if (frames.size() <= 2 * keep + 1) return frames;
  std::vector<Frame> out(std::make_move_iterator(frames.begin()),
                         std::make_move_iterator(frames.begin() + keep));
  Frame gap;
  gap.left_out = frames.size() - 2 * keep;
  out.push_back(std::move(gap));
  out.insert(out.end(), std::make_move_iterator(frames.end() - keep),
             std::make_move_iterator(frames.end()));
  return out;
}

// A limit error on its way out of the API call, its call stack already read. A limit is never
// caught inside the interpreter, so nothing on the way needs to see it: it is not an
// `EvalError`, and the activations it passes neither catch it nor each add a frame (of two
// strings, 50,000 times when the depth limit is hit) that all but 20 of would be dropped.
struct LimitUnwind {
  EvalError error;
};

// Throws `e` (a limit error, with the frames collected so far) as a `LimitUnwind`, adding the
// frames of `env` and every activation below it in this API call, as `limit_stack` keeps them.
[[noreturn]] HINTKIT_OFF_PATH void throw_limit_unwind(EvalError e, const Env* env) {
  std::vector<const Env*> below;
  for (; env; env = env->caller) below.push_back(env);
  constexpr size_t keep = kFramesKeptAtEachEnd;
  size_t collected = e.frames.size();
  size_t total = collected + below.size();
  auto frame_at = [&](size_t i) {
    return i < collected ? e.frames[i] : frame_of(*below[i - collected]);
  };
  std::vector<Frame> frames;
  if (total <= 2 * keep + 1) {
    for (size_t i = 0; i < total; ++i) frames.push_back(frame_at(i));
  } else {
    for (size_t i = 0; i < keep; ++i) frames.push_back(frame_at(i));
    Frame gap;
    gap.left_out = total - 2 * keep;
    frames.push_back(std::move(gap));
    for (size_t i = total - keep; i < total; ++i) frames.push_back(frame_at(i));
  }
  e.frames = std::move(frames);
  throw LimitUnwind{std::move(e)};
}

[[noreturn]] HINTKIT_OFF_PATH void outlived_error(const Function& fn) {
  throw_error("function " + fn.name + " outlived its module");
}

// The depth limit, or the stack running out before it (`t.depth` is the depth of the caller).
[[noreturn]] HINTKIT_OFF_PATH void call_stack_exceeded(ThreadState& t) {
  const int limit = t.options.limits.max_call_depth;
  std::string message =
      t.depth + 1 > limit
          ? "Starlark call stack exceeded the maximum depth (" + std::to_string(limit) + ")"
          : "Starlark call stack exceeded at depth " + std::to_string(t.depth + 1) + ": " +
                diag::stack_exhausted_reason() + " before the limit of " + std::to_string(limit) +
                " calls";
  throw_limit_unwind(EvalError(std::move(message), ErrorKind::kLimit), t.top);
}

// An error leaving `env`: its frame is added (a limit error goes on as a `LimitUnwind`).
HINTKIT_OFF_PATH void add_frame(EvalError& e, const Env& env) {
  if (e.bare) return;
  if (e.kind == ErrorKind::kLimit) throw_limit_unwind(std::move(e), &env);
  e.frames.push_back(frame_of(env));
}

Value call_function(FunctionObj& f, std::span<const Value> args, std::span<const Kwarg> kwargs) {
  ThreadState& t = *g_thread;
  const Function& fn = *f.fn;
  if (f.module->released) outlived_error(fn);
  if (++t.depth > t.options.limits.max_call_depth || diag::stack_exhausted()) {
    --t.depth;
    call_stack_exceeded(t);
  }
  struct DepthGuard {
    ThreadState& t;
    Env* caller;
    ~DepthGuard() {
      --t.depth;
      t.top = caller;
    }
  } guard{t, t.top};
  t.step();

  size_t nlocals = static_cast<size_t>(fn.num_locals);
  Value inline_locals[kInlineLocals];
  std::unique_ptr<Value[]> heap_locals;
  Value* locals = inline_locals;
  if (nlocals > kInlineLocals) {
    heap_locals.reset(new Value[nlocals]);
    locals = heap_locals.get();
  }
  Value ub = unbound();
  for (size_t i = 0; i < nlocals; ++i) locals[i] = ub;
  std::vector<CellPtr> cells;
  if (fn.num_cells > 0) {
    cells.reserve(static_cast<size_t>(fn.num_cells));
    for (int i = 0; i < fn.num_cells; ++i) cells.push_back(std::make_shared<Cell>(Cell{ub}));
  }
  Env env{&fn, &f, f.module.get(), locals, cells.data(), fn.entry_pos, Value(), t.top};
  t.top = &env;
  try {
    bind_args(env, f, args, kwargs);
    exec_block(env, fn.body);
  } catch (EvalError& e) {
    add_frame(e, env);
    throw;
  }
  return std::move(env.ret);
}

HINTKIT_OFF_PATH Value call_builtin(BuiltinObj& b, std::span<const Value> args,
                                    std::span<const Kwarg> kwargs) {
  ThreadState& t = *g_thread;
  t.step();
  if (b.bound && b.receiver.kind() == Kind::kString) charge_bytes(str_ref(b.receiver).size());
  // A builtin reads the strings it is given (hash, int, json.decode, regexp, md5...): charged
  // by size, as string methods are for their receiver.
  for (const Value& a : args)
    if (a.kind() == Kind::kString) charge_bytes(str_ref(a).size());
  for (const Kwarg& k : kwargs)
    if (k.value.kind() == Kind::kString) charge_bytes(str_ref(k.value).size());
  Call c{t.thread, b.name, b.bound ? &b.receiver : nullptr, args, kwargs};
  if (b.fn) return b.fn(c);
  Result<Value> r = b.native(c);
  if (!r.ok()) {
    EvalError e(r.error().message);
    e.kind = r.error().kind == ErrorKind::kLimit ? ErrorKind::kLimit : ErrorKind::kRuntime;
    if (r.error().cause) e.cause = r.error().cause;
    e.bare = r.error().go_panic;
    throw e;
  }
  return std::move(r.value());
}

[[noreturn]] HINTKIT_OFF_PATH void not_callable(const Value& fn) {
  throw_error("invalid call of non-function (" + std::string(fn.type_name()) + ")");
}

[[gnu::always_inline]] inline Value call_any(const Value& fn, std::span<const Value> args,
                                             std::span<const Kwarg> kwargs) {
  Value result;
  switch (fn.kind()) {
    case Kind::kFunction:
      result = call_function(*static_cast<FunctionObj*>(fn.object()), args, kwargs);
      break;
    case Kind::kBuiltin:
      result = call_builtin(*static_cast<BuiltinObj*>(fn.object()), args, kwargs);
      break;
    default:
      not_callable(fn);
  }
  // A call's return is a safe point: the callee's frame is gone and every value the callers
  // use is held by a counted reference.
  ContainerList& made = g_thread->containers;
  if (made.made >= made.next_at) {
    int64_t steps = g_thread->steps;
    int64_t since = steps >= made.steps_at ? steps - made.steps_at : steps;  // reset_steps()
    if (since >= static_cast<int64_t>(made.work_due)) {
      collect_containers(made, /*full=*/made.promoted >= made.next_full_at);
      made.steps_at = steps;
    }
  }
  return result;
}

Value make_function(Env& env, const std::shared_ptr<Function>& fn) {
  auto* f = new FunctionObj();
  Value result(f);
  f->fn = fn;
  f->module = env.closure->module;              // the top level runs with a closure too
  if (!fn->freevars.empty()) track_closure(f);  // may hold itself through a cell
  return result;
}

// ---- Expressions -----------------------------------------------------------------------------

HINTKIT_OFF_PATH Value call_method(const Value& recv, BuiltinFn method,
                                   std::string_view method_name, std::span<const Value> args,
                                   std::span<const Kwarg> kwargs) {
  ThreadState& t = *g_thread;
  t.step();
  if (recv.kind() == Kind::kString) charge_bytes(str_ref(recv).size());
  Call call{t.thread, method_name, &recv, args, kwargs};
  return method(call);
}

// The call once its arguments are evaluated: a method of a built-in type, or any callable.
inline Value finish_call(Env& env, const CallExpr& c, const Value& callee, const Value& recv,
                         BuiltinFn method, std::string_view method_name,
                         std::span<const Value> args, std::span<const Kwarg> kwargs) {
  env.pos = c.pos;
  if (method) return call_method(recv, method, method_name, args, kwargs);
  return call_any(callee, args, kwargs);
}

// A call with *args or **kwargs, or more arguments than eval_call keeps inline.
HINTKIT_OFF_PATH Value eval_call_spread(Env& env, const CallExpr& c, const Value& callee,
                                        const Value& recv, BuiltinFn method,
                                        std::string_view method_name) {
  std::vector<Value> heap_args;
  std::vector<Kwarg> heap_kwargs;
  std::vector<Value> kw_names;  // keeps **kwargs key strings alive
  for (const auto& a : c.args) {
    switch (a.kind) {
      case Arg::kPositional:
        heap_args.push_back(eval(env, *a.value));
        break;
      case Arg::kNamed:
        heap_kwargs.push_back(Kwarg{a.name, eval(env, *a.value)});
        break;
      case Arg::kStar: {
        Value v = eval(env, *a.value);
        env.pos = c.pos;
        if (length_of(v) < 0 || v.kind() == Kind::kString) {
          throw_error("argument after * must be iterable, not " + std::string(v.type_name()));
        }
        for_each(v, [&](const Value& x) { heap_args.push_back(x); });
        break;
      }
      case Arg::kStarStar: {
        Value v = eval(env, *a.value);
        env.pos = c.pos;
        if (v.kind() == Kind::kHost) {
          // a host mapping (ytt's yamlfragment of a map): its items (starlark-go asks Items,
          // which panics on a fragment of an array), else its keys and each key's value
          auto* host = static_cast<HostObject*>(v.object());
          auto pairs = host->mapping_items();
          if (!pairs.ok() && pairs.error().go_panic) throw_go_panic(pairs.error().message);
          if (pairs.ok() && *pairs) {
            for (const auto& [k, val] : **pairs) {
              if (k.kind() != Kind::kString)
                throw_error("keywords must be strings, not " + std::string(k.type_name()));
            }
            for (const auto& [k, val] : **pairs) {
              kw_names.push_back(k);
              heap_kwargs.push_back(Kwarg{str_ref(k), val});
            }
            break;
          }
          auto keys = host->iterate();
          if (!keys) {
            throw_error("argument after ** must be a mapping, not " + std::string(v.type_name()));
          }
          for (const auto& k : *keys) {
            if (k.kind() != Kind::kString)
              throw_error("keywords must be strings, not " + std::string(k.type_name()));
            auto val = host->index(k);
            if (!val.ok()) throw_error(val.error().message);
            kw_names.push_back(k);
            heap_kwargs.push_back(Kwarg{str_ref(k), *val});
          }
          break;
        }
        if (v.kind() == Kind::kStruct && v.type_name() != "module") {
          // ytt's structs are mappings of their field names (modules are not)
          for (const auto& [name, val] : struct_fields(v)) {
            Value k = Value::from_string(name);
            kw_names.push_back(k);
            heap_kwargs.push_back(Kwarg{str_ref(k), val});
          }
          break;
        }
        if (v.kind() != Kind::kDict)
          throw_error("argument after ** must be a mapping, not " + std::string(v.type_name()));
        for (const auto& e : as_dict(v)->table.entries()) {
          if (!e.live) continue;
          if (e.key.kind() != Kind::kString)
            throw_error("keywords must be strings, not " + std::string(e.key.type_name()));
          kw_names.push_back(e.key);  // keeps the name's storage alive for the call
          heap_kwargs.push_back(Kwarg{str_ref(e.key), e.value});
        }
        break;
      }
    }
  }
  return finish_call(env, c, callee, recv, method, method_name, heap_args, heap_kwargs);
}

HINTKIT_OFF_PATH Value eval_call(Env& env, const CallExpr& c) {
  // Method call fast path: `recv.name(args)` on built-in types avoids a bound-method object.
  Value callee;
  Value recv;
  BuiltinFn method = nullptr;
  std::string_view method_name;
  if (c.fn->kind == ExprKind::kDot) {
    const auto& d = static_cast<const DotExpr&>(*c.fn);
    recv = eval(env, *d.x);
    Kind k = recv.kind();
    if (k == Kind::kString || k == Kind::kList || k == Kind::kDict || k == Kind::kSet) {
      method = find_method(k, d.name);
      if (!method) {
        env.pos = d.pos;
        throw_error(no_attr_message(recv, d.name));
      }
      method_name = d.name;
    } else {
      env.pos = d.pos;
      callee = get_attr(recv, d.name);
    }
  } else {
    callee = eval(env, *c.fn);
  }

  size_t npos = 0, nkw = 0;
  for (const auto& a : c.args) {
    if (a.kind == Arg::kPositional) ++npos;
    if (a.kind == Arg::kNamed) ++nkw;
  }
  if (!c.simple || npos > kInlineArgs || nkw > kInlineKwargs)
    return eval_call_spread(env, c, callee, recv, method, method_name);
  Value inline_args[kInlineArgs];
  Kwarg inline_kwargs[kInlineKwargs];
  size_t i = 0, k = 0;
  for (const auto& a : c.args) {
    if (a.kind == Arg::kPositional) {
      inline_args[i++] = eval_flat(env, *a.value);
    } else {
      inline_kwargs[k].name = a.name;
      inline_kwargs[k++].value = eval_flat(env, *a.value);
    }
  }
  return finish_call(env, c, callee, recv, method, method_name,
                     std::span<const Value>(inline_args, i),
                     std::span<const Kwarg>(inline_kwargs, k));
}

HINTKIT_OFF_PATH Value eval_comprehension(Env& env, const Comprehension& c) {
  Value result = c.is_dict ? new_dict() : list_value({});
  ThreadState& t = *g_thread;
  // Recursive over clauses.
  struct Walker {
    Env& env;
    const Comprehension& c;
    Value& result;
    ThreadState& t;
    void run(size_t i) {
      if (i == c.clauses.size()) {
        if (c.is_dict) {
          Value k = eval(env, *c.body);
          Value v = eval(env, *c.dict_value);
          env.pos = c.pos;
          as_dict(result)->table.insert(k, std::move(v));
        } else {
          auto& items = as_list(result)->items;
          items.push_back(eval(env, *c.body));
          if (items.size() > t.options.limits.max_collection_len)
            check_collection_size(items.size());
        }
        return;
      }
      const Clause& cl = c.clauses[i];
      if (!cl.is_for) {
        if (truth(eval(env, *cl.x))) run(i + 1);
        return;
      }
      Value seq = eval(env, *cl.x);
      env.pos = cl.pos;
      Iter it(seq);
      Value x;
      while (it.next(x)) {
        t.step();
        assign(env, *cl.vars, x);
        run(i + 1);
      }
    }
  } w{env, c, result, t};
  w.run(0);
  return result;
}

Value eval(Env& env, const Expr& e) {
  switch (e.kind) {
    case ExprKind::kIdent:
      return load_ident(env, static_cast<const Ident&>(e));
    case ExprKind::kLiteral:
      return static_cast<const Literal&>(e).value;
    case ExprKind::kParen:
      return eval(env, *static_cast<const ParenExpr&>(e).x);
    case ExprKind::kUnary: {
      const auto& u = static_cast<const Unary&>(e);
      Value x = eval(env, *u.x);
      env.pos = u.pos;
      return unary_op(u.op, x);
    }
    case ExprKind::kBinary: {
      const auto& b = static_cast<const Binary&>(e);
      Value x = eval_flat(env, *b.x);
      if (b.op == BinOp::kAnd) return truth(x) ? eval_flat(env, *b.y) : x;
      if (b.op == BinOp::kOr) return truth(x) ? x : eval_flat(env, *b.y);
      Value y = eval_flat(env, *b.y);
      env.pos = b.pos;
      if (x.is_small_int() && y.is_small_int()) {
        int64_t a = x.as_small_int(), c = y.as_small_int(), r;
        switch (b.op) {
          case BinOp::kPlus:
            if (!__builtin_add_overflow(a, c, &r)) return Value::from_int(r);
            break;
          case BinOp::kMinus:
            if (!__builtin_sub_overflow(a, c, &r)) return Value::from_int(r);
            break;
          case BinOp::kLt:
            return Value::from_bool(a < c);
          case BinOp::kLe:
            return Value::from_bool(a <= c);
          case BinOp::kGt:
            return Value::from_bool(a > c);
          case BinOp::kGe:
            return Value::from_bool(a >= c);
          case BinOp::kEq:
            return Value::from_bool(a == c);
          case BinOp::kNe:
            return Value::from_bool(a != c);
          default:
            break;
        }
      }
      return binary_op(b.op, x, y);
    }
    case ExprKind::kCall:
      return eval_call(env, static_cast<const CallExpr&>(e));
    case ExprKind::kIndex: {
      const auto& i = static_cast<const IndexExpr&>(e);
      Value x = eval(env, *i.x);
      Value k = eval(env, *i.index);
      env.pos = i.pos;
      return index_value(x, k);
    }
    case ExprKind::kSlice: {
      const auto& s = static_cast<const SliceExpr&>(e);
      Value x = eval(env, *s.x);
      Value lo = s.lo ? eval(env, *s.lo) : Value();
      Value hi = s.hi ? eval(env, *s.hi) : Value();
      Value st = s.step ? eval(env, *s.step) : Value();
      env.pos = s.pos;
      return slice_value(x, lo, hi, st);
    }
    case ExprKind::kDot: {
      const auto& d = static_cast<const DotExpr&>(e);
      Value x = eval(env, *d.x);
      env.pos = d.pos;
      return get_attr(x, d.name);
    }
    case ExprKind::kList:
    case ExprKind::kTuple: {
      const auto& l = static_cast<const ListExpr&>(e);
      std::vector<Value> items;
      items.reserve(l.items.size());
      for (const auto& x : l.items) items.push_back(eval(env, *x));
      return e.kind == ExprKind::kList ? list_value(std::move(items))
                                       : tuple_value(std::move(items));
    }
    case ExprKind::kDict: {
      const auto& d = static_cast<const DictExpr&>(e);
      Value result = new_dict();
      for (const auto& en : d.entries) {
        Value k = eval(env, *en.key);
        Value v = eval(env, *en.value);
        env.pos = en.key->pos;
        if (!as_dict(result)->table.insert(k, std::move(v))) {
          throw_error("duplicate key: " + repr_of(k));
        }
      }
      return result;
    }
    case ExprKind::kComprehension:
      return eval_comprehension(env, static_cast<const Comprehension&>(e));
    case ExprKind::kLambda: {
      const auto& l = static_cast<const LambdaExpr&>(e);
      Value fv = make_function(env, l.fn);
      auto* f = static_cast<FunctionObj*>(fv.object());
      // Lambdas take defaults and free variables like defs.
      for (const auto& p : l.fn->params) {
        if (p.kind == Param::kNormal) f->defaults.push_back(unbound());
        if (p.kind == Param::kDefault) f->defaults.push_back(eval(env, *p.default_value));
      }
      for (const auto& fv2 : l.fn->freevars) {
        const Binding& b = *fv2.outer;
        f->freevars.push_back(b.scope == Scope::kCell
                                  ? env.cells[b.index]
                                  : env.closure->freevars[static_cast<size_t>(b.index)]);
      }
      return fv;
    }
    case ExprKind::kCond: {
      const auto& c = static_cast<const CondExpr&>(e);
      return truth(eval(env, *c.cond)) ? eval(env, *c.then) : eval(env, *c.els);
    }
  }
  return Value();
}

// ---- Statements ------------------------------------------------------------------------------

void assign(Env& env, const Expr& target, const Value& v) {
  switch (target.kind) {
    case ExprKind::kIdent:
      slot(env, *static_cast<const Ident&>(target).binding) = v;
      return;
    case ExprKind::kParen:
      assign(env, *static_cast<const ParenExpr&>(target).x, v);
      return;
    case ExprKind::kIndex: {
      const auto& i = static_cast<const IndexExpr&>(target);
      Value x = eval(env, *i.x);
      Value k = eval(env, *i.index);
      env.pos = i.pos;
      set_index(x, k, v);
      return;
    }
    case ExprKind::kDot: {
      const auto& d = static_cast<const DotExpr&>(target);
      Value x = eval(env, *d.x);
      env.pos = d.pos;
      throw_error("can't assign to ." + d.name + " field of " + std::string(x.type_name()));
    }
    case ExprKind::kList:
    case ExprKind::kTuple: {
      const auto& l = static_cast<const ListExpr&>(target);
      if (v.kind() == Kind::kString || length_of(v) < 0) {
        throw_error("got " + std::string(v.type_name()) + " in sequence assignment");
      }
      std::vector<Value> items = to_vector(v);
      if (items.size() > l.items.size()) {
        throw_error("too many values to unpack (got " + std::to_string(items.size()) + ", want " +
                    std::to_string(l.items.size()) + ")");
      }
      if (items.size() < l.items.size()) {
        throw_error("too few values to unpack (got " + std::to_string(items.size()) + ", want " +
                    std::to_string(l.items.size()) + ")");
      }
      for (size_t i = 0; i < items.size(); ++i) assign(env, *l.items[i], items[i]);
      return;
    }
    default:
      throw_error("can't assign to expression");
  }
}

HINTKIT_OFF_PATH Value make_def(Env& env, const DefStmt& d) {
  Value fv = make_function(env, d.fn);
  auto* f = static_cast<FunctionObj*>(fv.object());
  for (const auto& p : d.fn->params) {
    if (p.kind == Param::kNormal) f->defaults.push_back(unbound());
    if (p.kind == Param::kDefault) f->defaults.push_back(eval(env, *p.default_value));
  }
  for (const auto& fv2 : d.fn->freevars) {
    const Binding& b = *fv2.outer;
    f->freevars.push_back(b.scope == Scope::kCell
                              ? env.cells[b.index]
                              : env.closure->freevars[static_cast<size_t>(b.index)]);
  }
  return fv;
}

HINTKIT_OFF_PATH void exec_aug_assign(Env& env, const AssignStmt& a) {
  auto apply = [&](const Value& x, const Value& y) -> Value {
    env.pos = a.op_pos;
    if (a.op == BinOp::kPlus && x.kind() == Kind::kList && length_of(y) >= 0 &&
        y.kind() != Kind::kString) {
      check_mutable(x, "apply += to");
      std::vector<Value> extra = to_vector(y);
      auto& items = as_list(x)->items;
      check_collection_size(items.size() + extra.size());
      items.insert(items.end(), extra.begin(), extra.end());
      return x;
    }
    return binary_op(a.op, x, y);
  };
  if (a.lhs->kind == ExprKind::kIndex) {
    const auto& i = static_cast<const IndexExpr&>(*a.lhs);
    Value x = eval(env, *i.x);
    Value k = eval(env, *i.index);
    env.pos = i.pos;
    Value old = index_value(x, k);
    Value y = eval(env, *a.rhs);
    Value r = apply(old, y);
    env.pos = i.pos;
    set_index(x, k, r);
  } else if (a.lhs->kind == ExprKind::kDot) {
    const auto& d = static_cast<const DotExpr&>(*a.lhs);
    Value x = eval(env, *d.x);
    env.pos = d.pos;
    throw_error("can't assign to ." + d.name + " field of " + std::string(x.type_name()));
  } else {
    Value old = eval(env, *a.lhs);
    Value y = eval(env, *a.rhs);
    assign(env, *a.lhs, apply(old, y));
  }
}

HINTKIT_OFF_PATH void exec_load(Env& env, const LoadStmt& l) {
  ThreadState& t = *g_thread;
  if (!t.options.load) throw_error("load not implemented by this application");
  Result<Module> m = t.options.load(t.thread, l.module);
  env.pos = l.pos;
  if (!m.ok()) {
    EvalError e(m.error().message);
    e.cause = m.error().cause;
    e.kind = m.error().kind == ErrorKind::kLimit ? ErrorKind::kLimit : ErrorKind::kRuntime;
    throw e;
  }
  for (size_t i = 0; i < l.to.size(); ++i) {
    const std::string& from = l.from[i];
    env.pos = l.from_pos[i];
    if (!from.empty() && from[0] == '_') {
      throw_error("load: names with leading underscores are not exported: " + from);
    }
    auto v = m->get(from);
    if (!v) throw_error("load: name " + from + " not found in module " + l.module);
    slot(env, *l.to[i]->binding) = *v;
  }
}

Flow exec_stmt(Env& env, const Stmt& s) {
  g_thread->step();
  env.pos = s.pos;
  switch (s.kind) {
    case StmtKind::kExpr:
      eval_flat(env, *static_cast<const ExprStmt&>(s).x);
      return Flow::kNormal;
    case StmtKind::kAssign: {
      const auto& a = static_cast<const AssignStmt&>(s);
      Value v = eval_flat(env, *a.rhs);
      env.pos = a.op_pos;
      assign(env, *a.lhs, v);
      return Flow::kNormal;
    }
    case StmtKind::kAugAssign:
      exec_aug_assign(env, static_cast<const AssignStmt&>(s));
      return Flow::kNormal;
    case StmtKind::kDef: {
      const auto& d = static_cast<const DefStmt&>(s);
      slot(env, *d.name->binding) = make_def(env, d);
      return Flow::kNormal;
    }
    case StmtKind::kIf: {
      const auto& i = static_cast<const IfStmt&>(s);
      return exec_block(env, truth(eval(env, *i.cond)) ? i.then : i.els);
    }
    case StmtKind::kFor: {
      const auto& f = static_cast<const ForStmt&>(s);
      Value seq = eval(env, *f.x);
      env.pos = f.pos;
      Iter it(seq);
      Value x;
      while (it.next(x)) {
        assign(env, *f.vars, x);
        Flow fl = exec_block(env, f.body);
        if (fl == Flow::kBreak) break;
        if (fl == Flow::kReturn) return fl;
      }
      return Flow::kNormal;
    }
    case StmtKind::kWhile: {
      const auto& w = static_cast<const WhileStmt&>(s);
      while (true) {
        env.pos = w.pos;
        g_thread->step();
        if (!truth(eval(env, *w.cond))) break;
        Flow fl = exec_block(env, w.body);
        if (fl == Flow::kBreak) break;
        if (fl == Flow::kReturn) return fl;
      }
      return Flow::kNormal;
    }
    case StmtKind::kReturn: {
      const auto& r = static_cast<const ReturnStmt&>(s);
      env.ret = r.result ? eval_flat(env, *r.result) : Value();
      return Flow::kReturn;
    }
    case StmtKind::kBreak:
      return Flow::kBreak;
    case StmtKind::kContinue:
      return Flow::kContinue;
    case StmtKind::kLoad:
      exec_load(env, static_cast<const LoadStmt&>(s));
      return Flow::kNormal;
  }
  return Flow::kNormal;
}

Flow exec_block(Env& env, const Block& body) {
  for (const auto& s : body) {
    Flow f = exec_stmt(env, *s);
    if (f != Flow::kNormal) return f;
  }
  return Flow::kNormal;
}

Error to_error(EvalError& e) {
  Error err;
  err.kind = e.kind;
  err.message = std::move(e.message);
  err.frames = e.kind == ErrorKind::kLimit ? limit_stack(std::move(e.frames)) : std::move(e.frames);
  err.cause = std::move(e.cause);
  err.go_panic = e.bare;
  return err;
}

}  // namespace

// ---- Internal API used by builtins -----------------------------------------------------------

Value call_value(const Value& fn, std::span<const Value> args, std::span<const Kwarg> kwargs) {
  return call_any(fn, args, kwargs);
}

// ---- Public API ------------------------------------------------------------------------------

std::optional<Value> Module::get(std::string_view name) const {
  for (const auto& [k, v] : globals_) {
    if (k == name) return v;
  }
  return std::nullopt;
}

Thread::Thread(ThreadOptions options)
    : state_(std::make_unique<ThreadState>(*this, std::move(options))) {}
Thread::~Thread() {
  collect_containers(state_->containers, /*full=*/true);
  state_.reset();
  collect_cycles();
}

FunctionObj::~FunctionObj() {
  if (tracked) untrack_closure(this);
}
int64_t Thread::steps() const { return state_->steps; }
void Thread::reset_steps() { state_->steps = 0; }
void Thread::charge(int64_t steps) { state_->charge(steps); }
const ThreadOptions& Thread::options() const { return state_->options; }

Result<Module> Thread::exec(const Program& program, const Predeclared& predeclared) {
  ThreadScope scope(state_.get());
  const File& file = *program.impl->file;
  auto module = std::make_shared<ModuleEnv>();
  track_module(module);
  module->program = program.impl;
  module->globals.assign(file.globals.size(), unbound());
  for (const auto& name : program.impl->predeclared) {
    Value v;
    bool found = false;
    for (const auto& [k, x] : predeclared) {
      if (k == name) {
        v = x;
        found = true;
        break;
      }
    }
    if (!found) {
      Error e;
      e.message = "predeclared name " + name + " was not provided";
      return e;
    }
    module->predeclared.push_back(std::move(v));
  }
  // The top level runs as a function whose module env is `module`.
  auto top = new FunctionObj();
  Value topv(top);
  top->fn = file.toplevel;
  top->module = module;
  const Function& fn = *file.toplevel;
  std::vector<Value> locals(static_cast<size_t>(fn.num_locals), unbound());
  std::vector<CellPtr> cells;
  for (int i = 0; i < fn.num_cells; ++i) cells.push_back(std::make_shared<Cell>(Cell{unbound()}));
  Env env{&fn, top, module.get(), locals.data(), cells.data(), Pos{1, 1}, Value(), nullptr};
  StackBase base(*state_, &env);
  auto failed = [&](EvalError& e) {
    // Break reference cycles between the module and its functions, then free the values that
    // hold themselves (a list appended to itself) which no function reaches.
    std::vector<Value> roots;
    for (const Value& v : module->globals)
      if (v.is_object()) roots.push_back(v);
    module->globals.clear();
    collect_cycles_held(roots);
    return to_error(e);
  };
  try {
    exec_block(env, fn.body);
  } catch (EvalError& e) {
    if (!e.bare) e.frames.push_back(frame_of(env));
    return failed(e);
  } catch (LimitUnwind& u) {
    return failed(u.error);
  }
  Module m;
  // The module's values may hold themselves (a list appended to itself) with no function
  // keeping the module env alive: the last handle of the module looks at them too.
  std::vector<Value> roots;
  for (const Value& v : module->globals)
    if (v.is_object()) roots.push_back(v);
  m.free_cycles_on_drop_ = std::shared_ptr<void>(
      nullptr, [weak = std::weak_ptr<ModuleEnv>(module), roots = std::move(roots)](void*) mutable {
        if (auto env = weak.lock()) collect_cycles(env);
        collect_cycles_held(roots);
      });
  for (size_t i = 0; i < file.globals.size(); ++i) {
    Value& v = module->globals[i];
    if (is_unbound(v)) continue;
    freeze(v);
    m.globals_.emplace_back(file.globals[i]->name, v);
  }
  return m;
}

Result<Value> Thread::call(const Value& callable, std::span<const Value> args,
                           std::span<const Kwarg> kwargs) {
  ThreadScope scope(state_.get());
  StackBase base(*state_, nullptr);
  try {
    return call_any(callable, args, kwargs);
  } catch (EvalError& e) {
    return to_error(e);
  } catch (LimitUnwind& u) {
    return to_error(u.error);
  }
}

std::string format_backtrace(const Error& error, const LineLookup& lines, std::string_view indent,
                             const std::function<bool(const Frame&)>& with_file) {
  std::string out;
  for (const auto& f : error.frames) {
    if (f.left_out > 0) {
      out += std::string(indent) + left_out_text(f.left_out) + "\n";
      continue;
    }
    out += std::string(indent) + "in " + f.function + "\n";
    std::string loc = std::to_string(f.pos.line);
    if (!with_file || with_file(f)) loc = f.file + ":" + loc;
    out +=
        std::string(indent) + "  " + loc + " | " + (lines ? lines(f.file, f.pos.line) : "") + "\n";
  }
  return out;
}

Value make_builtin(std::string name, NativeFn fn) {
  auto* b = new BuiltinObj();
  b->name = std::move(name);
  b->native = std::move(fn);
  return Value(b);
}

std::optional<Signature> signature(const Value& fn) {
  if (!fn.is(Kind::kFunction)) return std::nullopt;
  const Function& f = *static_cast<const FunctionObj*>(fn.object())->fn;
  Signature sig;
  for (const auto& name : f.param_names) sig.names.emplace_back(name.as_string());
  sig.num_positional = f.num_positional;
  sig.num_required = std::min(f.num_defaults_first, f.num_positional);
  sig.has_varargs = f.has_varargs;
  sig.has_kwargs = f.has_kwargs;
  return sig;
}

Value make_method(std::string name, Value receiver, NativeFn fn) {
  auto* b = new BuiltinObj();
  b->name = std::move(name);
  b->native = std::move(fn);
  b->receiver = std::move(receiver);
  b->bound = true;
  return Value(b);
}

}  // namespace hintkit::starlark

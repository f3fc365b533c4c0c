// A Starlark interpreter in the dialect ytt v0.48.0 embeds: blocks close with `end`,
// indentation is ignored, `pass` is reserved; while loops, recursion, floats, sets, top-level
// control flow and global rebinding are allowed. The interpreter never touches files, the
// network or processes: `load()` goes through a host callback.
//
// Where to start:
//   1. `compile(file, source)` turns source text into a `Program` (or a compile `Error` that
//      lists every problem, each with its 1-based line:column).
//   2. A `Thread` runs programs: `thread.exec(program, predeclared)` executes the top level and
//      returns the frozen `Module` of globals; `thread.call(fn, args, kwargs)` calls any
//      callable value. The thread enforces `Limits` (steps, call depth, sizes).
//   3. `Value` is the compact, reference-counted value type shared by host and interpreter;
//      build values with `Value::from_*` / `make_*`, inspect them with `kind()` and the
//      accessors, and extend the language with `make_builtin(name, NativeFn)`.
//   4. Runtime errors carry the call stack (`Error::frames`, innermost first);
//      `format_backtrace(error, lines)` prints it the way ytt does.
//
// Inside, one file per phase, as in starlark-go's syntax/, resolve/ and starlark/ packages;
// each file uses only those listed before it (no circles, over includes or link symbols):
//   thread.h        the running thread's limits and counters; the internal exception
//   ast.h, walk.h   the syntax tree (header only) and the one generic traversal of it
//   values.h        the object model and what every value can do (hash, compare, str, index)
//   format.h, operators.h   `%` and str.format; the binary and unary operators
//   builtins.h      argument unpacking, methods and attributes of the built-in types
//                   (builtins_args.cpp, builtins_methods.cpp)
//   cycles.h, eval.h   the cycle collector; the tree-walking evaluator
//   builtins.h      the universe (builtins_universe.cpp: calls back into Starlark via eval.h)
//   scanner.h, parser.h   source text to syntax tree
//   template_ctx.h  ytt's rewrite of a compiled template's defs (start_ctx/end_ctx)
//   resolver.h      names to slots (scopes.h: what a name means at a point of the program)
//   compile.cpp     `compile`: the phases in order; the universe reaches the resolver as a
//                   predicate
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "diag/diag.h"

namespace hintkit::starlark {

// ---- Limits ----------------------------------------------------------------------------------

// Validation rules and schema defaults are small programs; anything above these is runaway.
inline constexpr int64_t kMaxSteps = 10'000'000;  // ~1s of evaluation; stops `while True:`
// ytt's Go stack (1 GB) takes recursion past 100,000 calls. Here a call costs about 3.6 KB of
// the evaluator's stack, and an error unwinds every level (about 40 us each): 50,000 calls
// stay near 200 MB and 2 s. Hosts run the evaluator on a big stack (`diag::run_with_big_stack`);
// on a smaller one the stack check stops it first.
inline constexpr int kMaxCallDepth = 50'000;
inline constexpr size_t kMaxStringBytes = size_t{16} << 20;   // 16 MiB; stops string doubling
inline constexpr size_t kMaxCollectionLen = size_t{4} << 20;  // 4M elements per list/dict/set
inline constexpr size_t kMaxIntBits = 32768;  // ~9900 digits; schoolbook math stays fast below
inline constexpr int kMaxNesting = 200;       // parser nesting of brackets/blocks; bounds recursion
inline constexpr size_t kMaxSourceBytes = size_t{8} << 20;  // one program's source text

// String and list work costs steps in proportion to its size: a step per this many bytes a
// string method reads or a string holds when built, a step per element of a list or tuple
// built. A step is about 0.1 us of evaluation; copying and scanning 16 bytes is less, and a
// 16 MiB `replace` (a million steps) can no longer run a hundred times under the step limit.
inline constexpr size_t kBytesPerStep = 16;
// Bytes of Starlark strings alive at once, process-wide: 200 distinct 16 MiB strings would
// take 3.2 GB. Templates hold kilobytes; the largest data values files are 64 MiB.
inline constexpr size_t kMaxLiveStringBytes = size_t{256} << 20;

struct Limits {
  int64_t max_steps = kMaxSteps;
  int max_call_depth = kMaxCallDepth;
  size_t max_string_bytes = kMaxStringBytes;
  size_t max_collection_len = kMaxCollectionLen;
  size_t max_live_string_bytes = kMaxLiveStringBytes;
};

// ---- Errors ----------------------------------------------------------------------------------

// One activation on the call stack at the time of a runtime error.
struct Frame {
  std::string function;  // "<toplevel>", a def's name, "lambda", or a builtin's name
  std::string file;      // the program's file name as given to `compile`
  diag::Position pos;    // the operation in progress in that frame
  // Not a frame but a gap: this many frames were left out here (see kFramesKeptAtEachEnd).
  size_t left_out = 0;
};

// A limit error (`ErrorKind::kLimit`) raised 50,000 calls deep would list every call; ytt
// never prints one (it has no such limit and crashes on its stack), so such a stack keeps this
// many frames at each end and one gap `Frame` between them.
inline constexpr size_t kFramesKeptAtEachEnd = 10;

enum class ErrorKind {
  kCompile,  // scanner, parser or resolver; `problems` lists each
  kRuntime,  // evaluation failed; `frames` holds the stack
  kLimit,    // a `Limits` bound was hit (also has frames)
};

// A compile problem: message plus where.
struct Problem {
  std::string message;
  std::string file;
  diag::Position pos;
};

struct Error {
  ErrorKind kind = ErrorKind::kRuntime;
  std::string message;            // e.g. "floored division by zero"; first problem for compiles
  std::vector<Problem> problems;  // compile errors, in source order
  std::vector<Frame> frames;      // innermost first (as ytt prints them)
  std::shared_ptr<Error> cause;   // e.g. the error inside a module that `load` failed to run
  // A Go panic outside any of ytt's error wrappers (its yamlfragment's Slice, Items): it
  // unwinds the whole evaluation and is reported bare, with no builtin's name and no stack.
  bool go_panic = false;

  // message plus the stack, starlark-go style, for logs and tests.
  std::string to_string() const;
};

// diag's `Result` with Starlark's `Error` (which carries the call stack).
template <typename T>
using Result = diag::Result<T, Error>;

// Text of a source line by 1-based number for a file; empty when unknown.
using LineLookup = std::function<std::string(std::string_view file, int line)>;

// Formats the stack the way ytt prints a Starlark error below its message:
//     in safe_div
//       2 |   return a // b
//     in <toplevel>
//       schema.yaml:4 | value: #@ f(0)
// `indent` is prepended to every line. `with_file(frame)` says whether a frame's location
// shows the file name (ytt omits it for .star files); default: always.
// How a gap `Frame` reads: "(49980 more calls left out)".
std::string left_out_text(size_t frames);

std::string format_backtrace(const Error& error, const LineLookup& lines, std::string_view indent,
                             const std::function<bool(const Frame&)>& with_file = {});

// ytt appends hints to some Starlark messages; this returns `message` with ytt's hint when one
// applies (e.g. "undefined: null (hint: use 'None' instead of 'null' to indicate no value)").
// `source_line` is the line the error points at (needed for the `&&`/`||` hints).
std::string with_ytt_hint(std::string_view message, std::string_view source_line = {});

// Appends code point `cp` to `out` as UTF-8 (Starlark strings are UTF-8 bytes; `chr`,
// `\\u` escapes and JSON decoding all produce them this way).
void append_utf8(std::string& out, uint32_t cp);

// ---- Values ----------------------------------------------------------------------------------

enum class Kind : uint8_t {
  kNone,
  kBool,
  kInt,
  kFloat,
  kString,
  kList,
  kTuple,
  kDict,
  kSet,
  kRange,
  kFunction,  // a def or lambda
  kBuiltin,   // a native function or bound method
  kStruct,    // attribute bag: ytt's struct values and host modules
  kHost,      // a host-defined object (see `HostObject`)
};
std::string_view to_string(Kind k);

class Value;

// Base of every heap value. Reference-counted intrusively (single-threaded, like a Thread).
class Object {
 public:
  virtual ~Object() = default;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  Kind kind() const { return kind_; }
  // References held to this object (for the interpreter's cycle collector).
  uint32_t use_count() const { return refs_; }

 protected:
  explicit Object(Kind kind) : kind_(kind) {}

 private:
  friend class Value;
  friend void make_immortal(const Value& v);
  mutable uint32_t refs_ = 0;
  Kind kind_;
};

// Pins a shared value (e.g. the universe's builtins) so its count never drops to zero.
void make_immortal(const Value& v);

// A compact value: 16 bytes; none/bool/int64/float inline, everything else a counted pointer.
class Value {
 public:
  Value() : tag_(Tag::kNone) { u_.i = 0; }
  Value(const Value& o) : tag_(o.tag_), u_(o.u_) { retain(); }
  Value(Value&& o) noexcept : tag_(o.tag_), u_(o.u_) { o.tag_ = Tag::kNone; }
  Value& operator=(const Value& o) {
    if (this != &o) {
      o.retain();
      release();
      tag_ = o.tag_;
      u_ = o.u_;
    }
    return *this;
  }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      release();
      tag_ = o.tag_;
      u_ = o.u_;
      o.tag_ = Tag::kNone;
    }
    return *this;
  }
  ~Value() { release(); }

  // Adopts a freshly made object (refcount starts at one here).
  explicit Value(Object* obj) : tag_(Tag::kObject) {
    u_.o = obj;
    retain();
  }

  static Value none() { return Value(); }
  static Value from_bool(bool b) {
    Value v;
    v.tag_ = Tag::kBool;
    v.u_.b = b;
    return v;
  }
  static Value from_int(int64_t i) {
    Value v;
    v.tag_ = Tag::kInt;
    v.u_.i = i;
    return v;
  }
  static Value from_float(double d) {
    Value v;
    v.tag_ = Tag::kFloat;
    v.u_.f = d;
    return v;
  }
  static Value from_string(std::string_view s);
  // Parses a decimal integer of any size ("-123456789012345678901234567890").
  static std::optional<Value> parse_int(std::string_view decimal);

  Kind kind() const {
    switch (tag_) {
      case Tag::kNone:
        return Kind::kNone;
      case Tag::kBool:
        return Kind::kBool;
      case Tag::kInt:
        return Kind::kInt;
      case Tag::kFloat:
        return Kind::kFloat;
      case Tag::kObject:
        break;
    }
    return u_.o->kind();
  }
  // Starlark's type name: "NoneType", "int", "string", "list", "dict", "function", ...
  std::string_view type_name() const;

  bool is_none() const { return tag_ == Tag::kNone; }
  bool is_bool() const { return tag_ == Tag::kBool; }
  bool is_small_int() const { return tag_ == Tag::kInt; }
  bool is_float() const { return tag_ == Tag::kFloat; }
  bool is_object() const { return tag_ == Tag::kObject; }
  bool is(Kind k) const { return kind() == k; }

  // Accessors; each requires the matching kind.
  bool as_bool() const { return u_.b; }
  int64_t as_small_int() const { return u_.i; }
  double as_float() const { return u_.f; }
  Object* object() const { return u_.o; }
  std::string_view as_string() const;  // kString

  // An int that fits in int64 (small or big), else nullopt. Also nullopt for non-ints.
  std::optional<int64_t> to_int64() const;
  // int or float as double (ints may round).
  std::optional<double> to_double() const;
  // Decimal text of an int of any size.
  std::string int_text() const;

  // Truthiness as Starlark defines it.
  bool truth() const;
  // str(v) and repr(v).
  std::string str() const;
  std::string repr() const;

  // Sequence/mapping access for the host. `len()` works for string, list, tuple, dict, set,
  // range; `items()` returns elements of list/tuple/set/range, or the keys of a dict.
  size_t len() const;
  std::vector<Value> items() const;
  std::vector<std::pair<Value, Value>> dict_items() const;  // kDict (insertion order)
  std::optional<Value> dict_get(const Value& key) const;    // kDict
  std::optional<Value> attr(std::string_view name) const;   // kStruct / kHost fields
  std::vector<std::string> attr_names() const;              // kStruct / kHost

  // Structural equality (Starlark `==`); never fails (incomparable kinds are unequal).
  friend bool operator==(const Value& a, const Value& b);

 private:
  enum class Tag : uint8_t { kNone, kBool, kInt, kFloat, kObject };
  void retain() const {
    if (tag_ == Tag::kObject) ++u_.o->refs_;
  }
  void release() {
    if (tag_ == Tag::kObject && --u_.o->refs_ == 0) destroy(u_.o);
  }
  // Deletes iteratively, so dropping a deeply nested value cannot overflow the stack.
  static void destroy(Object* o);
  Tag tag_;
  union {
    bool b;
    int64_t i;
    double f;
    Object* o;
  } u_;
};

// ---- Building values -------------------------------------------------------------------------

// int(d): a finite float truncated toward zero, at any size; nullopt for NaN and infinities.
std::optional<Value> int_from_float(double d);

Value make_list(std::vector<Value> items);
Value make_tuple(std::vector<Value> items);
// Fails if a key is unhashable; later duplicates overwrite earlier ones.
Result<Value> make_dict(std::vector<std::pair<Value, Value>> items);
Result<Value> make_set(std::vector<Value> items);
// An immutable attribute bag. `type_name` is what `type()` reports ("struct", "module").
Value make_struct(std::string type_name, std::string name,
                  std::vector<std::pair<std::string, Value>> fields);

// A struct's fields in the order they were given (empty for other kinds).
const std::vector<std::pair<std::string, Value>>& struct_fields(const Value& v);

// Mutating host helpers (fail on frozen or wrong-kind values).
Result<bool> list_append(const Value& list, Value item);
Result<bool> dict_set(const Value& dict, Value key, Value value);
// Makes a value and everything reachable from it immutable.
void freeze(const Value& v);

// ---- Native functions ------------------------------------------------------------------------

class Thread;

struct Kwarg {
  std::string_view name;
  Value value;
};

// What a native function receives.
struct Call {
  Thread& thread;
  std::string_view name;  // the builtin's name, for messages ("len: got 2 arguments...")
  const Value* receiver;  // bound method receiver, or nullptr
  std::span<const Value> args;
  std::span<const Kwarg> kwargs;
};

// A native function: returns a value, or an Error whose message is reported at the call site
// (return `fail_error("...")` for the usual case).
using NativeFn = std::function<Result<Value>(const Call& call)>;
Error fail_error(std::string message);

Value make_builtin(std::string name, NativeFn fn);
// A builtin bound to `receiver` (`call.receiver` points at it), e.g. a host object's method.
Value make_method(std::string name, Value receiver, NativeFn fn);

// The parameters of a def or lambda, for hosts that call user functions with a varying number of
// arguments (ytt's `when=` takes `(v)` or `(v, ctx)`). nullopt for builtins and non-functions.
struct Signature {
  std::vector<std::string> names;  // named parameters in order (positional, then keyword-only)
  int num_positional = 0;          // parameters that can be passed by position
  int num_required = 0;            // positional parameters without a default
  bool has_varargs = false;        // *args
  bool has_kwargs = false;         // **kwargs

  // Whether a call with `n` positional arguments (and no keywords) binds every parameter.
  bool accepts_positional(int n) const {
    return n >= num_required && (has_varargs || n <= num_positional);
  }
};
std::optional<Signature> signature(const Value& fn);

// Host objects with attributes and methods: subclass `HostObject`, return fields and methods
// from `attr()` (methods via `make_method(name, self_value, fn)`, which gives the NativeFn the
// receiver), list them in `attr_names()`. For a plain immutable bag of fields and callables
// `make_struct(type_name, name, fields)` is enough: `type()` reports `type_name`, `dir()` sorts,
// `str()` prints "struct(...)" (or `<module "name">` when `type_name` is "module"), `==` is
// identity (as in ytt), and `s["field"]` indexes by name.
//
// Host-defined object types (ytt's yamlfragment, for example). Defaults say "unsupported".
class HostObject : public Object {
 public:
  HostObject() : Object(Kind::kHost) {}
  virtual std::string_view type_name() const = 0;
  virtual std::string repr() const;
  virtual std::string str() const { return repr(); }
  virtual bool truth() const { return true; }
  virtual std::optional<Value> attr(std::string_view name) const;
  virtual std::vector<std::string> attr_names() const { return {}; }
  // Length/indexing/iteration; nullopt = unsupported by this type.
  virtual std::optional<size_t> len() const { return std::nullopt; }
  virtual Result<Value> index(const Value& key) const;
  virtual std::optional<std::vector<Value>> iterate() const { return std::nullopt; }
  // `obj[key] = value`: the error it fails with (starlark-go's SetKey/SetIndex of the type);
  // nullopt: the type does not support item assignment.
  virtual std::optional<Error> set_index_error() const { return std::nullopt; }
  // Why the value cannot be a dict key or set element (its Go type's Hash error); nullopt:
  // hashable, by identity.
  virtual std::optional<std::string> hash_error() const { return std::nullopt; }
  // `x in obj` for mapping-like objects (Starlark asks their Get and ignores its errors);
  // nullopt: membership by iteration.
  // (Starlark ignores Get's errors here, but not a Go panic: see throw_go_panic.)
  virtual std::optional<bool> contains(const Value&) const { return std::nullopt; }
  // The (key, value) pairs of an iterable mapping (what dict() and dict.update() take from
  // it); nullopt: not a mapping.
  using Pairs = std::vector<std::pair<Value, Value>>;
  // (A Go panic there is an Error with `go_panic` set.)
  virtual Result<std::optional<Pairs>> mapping_items() const { return std::optional<Pairs>(); }
  // Sliceable types: the Go panic their Slice raises once starlark-go has checked the indices
  // (ytt's yamlfragment: "yamlfragment.Slice: Not implemented"); nullopt: not sliceable.
  virtual std::optional<std::string> slice_panic() const { return std::nullopt; }
  // `==` between two objects of the same type (an error: the type defines no equality).
  virtual Result<bool> equals(const HostObject& other) const { return this == &other; }
  virtual void freeze() {}
};

// From a host object's method called by the interpreter: a Go panic outside ytt's error
// wrappers (see Error::go_panic), which unwinds the whole evaluation.
[[noreturn]] void throw_go_panic(std::string message);

// ---- Programs and execution ------------------------------------------------------------------

struct ProgramImpl;

// A compiled file: AST with names resolved to slots. Cheap to share; reusable by many threads
// one at a time.
class Program {
 public:
  const std::string& file() const;
  // Names bound at top level, in slot order.
  std::vector<std::string> global_names() const;
  // `load("module", ...)` statements in source order: module strings.
  std::vector<std::string> loads() const;

  std::shared_ptr<const ProgramImpl> impl;
};

// The instruction names a compiled ytt template calls (`__ytt_tpl2_start_node`, ...).
struct TemplateOps {
  std::string set_ctx_type, start_ctx, end_ctx, start_node, set_node;
};

struct CompileOptions {
  // Names the host will supply at exec time (besides the universe); other unknown names are
  // compile errors ("undefined: x").
  std::vector<std::string> predeclared;
  // Set for a compiled ytt template: defs that build YAML get their own evaluation context,
  // as ytt's template package rewrites them before running.
  std::optional<TemplateOps> template_ops;
};

Result<Program> compile(std::string_view file, std::string_view source,
                        const CompileOptions& options = {});

// The frozen globals of an executed program.
class Module {
 public:
  std::optional<Value> get(std::string_view name) const;
  const std::vector<std::pair<std::string, Value>>& globals() const { return globals_; }

  // When the last copy of an executed module goes, the cycles between its functions and its
  // globals are freed (declared first: runs after `globals_` has let go).
  std::shared_ptr<void> free_cycles_on_drop_;
  std::vector<std::pair<std::string, Value>> globals_;  // set by the interpreter
};

using Predeclared = std::vector<std::pair<std::string, Value>>;

// Resolves `load("module", "name", alias="name")`: returns the module's globals or an Error
// (its message is reported as the load's failure; ytt uses "cannot load X: ...").
using LoadHook = std::function<Result<Module>(Thread& thread, std::string_view module)>;
using PrintHook = std::function<void(std::string_view text)>;

struct ThreadOptions {
  Limits limits;
  LoadHook load;    // unset: every load fails with "load not supported"
  PrintHook print;  // unset: print() writes to stderr
};

struct ThreadState;

// One evaluation context: owns the step counter, the call stack and the hooks. Not
// thread-safe; use one per worker. Steps accumulate over every exec/call on the thread.
class Thread {
 public:
  explicit Thread(ThreadOptions options = {});
  ~Thread();
  Thread(const Thread&) = delete;
  Thread& operator=(const Thread&) = delete;

  // Runs the top level; globals are frozen afterwards. Names in `predeclared` shadow the
  // universe and must cover `CompileOptions::predeclared`.
  Result<Module> exec(const Program& program, const Predeclared& predeclared = {});
  // Calls a function/builtin value.
  Result<Value> call(const Value& callable, std::span<const Value> args = {},
                     std::span<const Kwarg> kwargs = {});

  int64_t steps() const;
  void reset_steps();
  // Charges `steps` for work a native function does in proportion to a size (a step per element
  // or per kBytesPerStep bytes); throws the step limit's error once the budget is spent, as the
  // interpreter's own steps do. Only while this thread runs Starlark.
  void charge(int64_t steps);
  const ThreadOptions& options() const;
  ThreadState& state() { return *state_; }

 private:
  std::unique_ptr<ThreadState> state_;
};

// Module envs alive after a full collection of the cycles between modules and functions,
// process-wide (a host's last reference to a function of a module whose thread is gone leaves
// that cycle to the next collection: the next thread's end, or this call). Once a host has let
// go of its threads, modules and values, none should be: tests and the fuzz targets check it
// (the collector's registry would keep a leaked env out of LeakSanitizer's sight).
size_t live_modules();

// Convenience for tests and simple hosts: compile and run in a fresh thread.
Result<Module> exec_file(std::string_view file, std::string_view source,
                         const Predeclared& predeclared = {}, ThreadOptions options = {});

}  // namespace hintkit::starlark

// Values: the object model, hashing, equality, ordering, str/repr, indexing and slicing.
#include "starlark/values.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_set>

#include "diag/diag.h"
#include "diag/stack.h"
#include "gocompat/gocompat.h"
#include "starlark/runes.h"

namespace hintkit::starlark {

void throw_go_panic(std::string message) {
  EvalError e(std::move(message));
  e.bare = true;
  throw e;
}

namespace {
// Immortal marker object for unassigned slots.
struct UnboundObj : Object {
  UnboundObj() : Object(Kind::kNone) {}
};
}  // namespace

Value unbound() {
  static const Value* v = [] {
    auto* x = new Value(new UnboundObj());
    make_immortal(*x);
    return x;
  }();
  return *v;
}

void make_immortal(const Value& v) {
  if (v.is_object()) v.object()->refs_ = uint32_t{1} << 30;
}

void Value::destroy(Object* o) {
  // Objects released while another delete is running are queued and deleted by the outermost
  // call, turning recursive destruction of nested containers into a loop.
  thread_local std::vector<Object*>* pending = nullptr;
  if (pending) {
    pending->push_back(o);
    return;
  }
  std::vector<Object*> queue;
  pending = &queue;
  delete o;
  while (!queue.empty()) {
    Object* next = queue.back();
    queue.pop_back();
    delete next;
  }
  pending = nullptr;
}

std::string_view to_string(Kind k) {
  switch (k) {
    case Kind::kNone:
      return "NoneType";
    case Kind::kBool:
      return "bool";
    case Kind::kInt:
      return "int";
    case Kind::kFloat:
      return "float";
    case Kind::kString:
      return "string";
    case Kind::kList:
      return "list";
    case Kind::kTuple:
      return "tuple";
    case Kind::kDict:
      return "dict";
    case Kind::kSet:
      return "set";
    case Kind::kRange:
      return "range";
    case Kind::kFunction:
      return "function";
    case Kind::kBuiltin:
      return "builtin_function_or_method";
    case Kind::kStruct:
      return "struct";
    case Kind::kHost:
      return "host";
  }
  return "?";
}

std::optional<Value> int_from_float(double d) {
  if (!std::isfinite(d)) return std::nullopt;
  double t = std::trunc(d);
  if (std::fabs(t) < 9.0e18) return Value::from_int(static_cast<int64_t>(t));
  // Exact conversion of a large double through its decimal expansion.
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.0f", t);
  return int_value(*BigInt::parse(buf, 10));
}

std::string left_out_text(size_t frames) {
  return "(" + std::to_string(frames) + " more calls left out)";
}

void charge_new_string(size_t n) {
  if (!g_thread) return;
  charge_bytes(n);
  const size_t max = g_thread->options.limits.max_live_string_bytes;
  const size_t live = live_string_bytes() + n;
  if (live > max) {
    throw_limit("Starlark memory budget exceeded: live strings would hold " + std::to_string(live) +
                " bytes (limit " + std::to_string(max) + ")");
  }
}

void link_container(Mutable* m, Kind kind) {
  if (!g_thread) return;
  GcLink& head = g_thread->containers.young;
  m->gc_kind = kind;
  m->gc_prev = &head;
  m->gc_next = head.gc_next;
  head.gc_next->gc_prev = m;
  head.gc_next = m;
  ++g_thread->containers.made;
}

// ---- Construction ----------------------------------------------------------------------------

Value Value::from_string(std::string_view s) { return Value(new StringObj(std::string(s))); }

std::optional<Value> Value::parse_int(std::string_view decimal) {
  auto b = BigInt::parse(decimal, 10);
  if (!b) return std::nullopt;
  return int_value(*b);
}

namespace {
std::atomic<size_t> g_live_string_bytes{0};
}  // namespace

size_t live_string_bytes() { return g_live_string_bytes.load(std::memory_order_relaxed); }

StringObj::StringObj(std::string s) : Object(Kind::kString), str(std::move(s)) {
  g_live_string_bytes.fetch_add(str.size(), std::memory_order_relaxed);
}
StringObj::~StringObj() { g_live_string_bytes.fetch_sub(str.size(), std::memory_order_relaxed); }

Value str_value(std::string s) {
  check_string_size(s.size());
  charge_new_string(s.size());
  return Value(new StringObj(std::move(s)));
}

Value int_value(BigInt v) {
  if (auto i = v.to_int64()) return Value::from_int(*i);
  if (v.bit_length() > kMaxIntBits) {
    throw_limit("int too large: " + std::to_string(v.bit_length()) + " bits exceeds the limit of " +
                std::to_string(kMaxIntBits));
  }
  return Value(new BigIntObj(std::move(v)));
}

BigInt to_bigint(const Value& v) {
  if (v.is_small_int()) return BigInt(v.as_small_int());
  return static_cast<const BigIntObj*>(v.object())->value;
}

Value list_value(std::vector<Value> items) {
  check_collection_size(items.size());
  charge_elements(items.size());
  return Value(new ListObj(std::move(items)));
}
Value tuple_value(std::vector<Value> items) {
  check_collection_size(items.size());
  charge_elements(items.size());
  return Value(new TupleObj(std::move(items)));
}
Value new_dict() { return Value(new DictObj()); }
Value new_set() { return Value(new SetObj()); }

std::string Error::to_string() const {
  std::string out = message;
  for (const auto& p : problems) {
    if (&p == &problems.front() && p.message == message) continue;
    out += "\n" + p.file + ":" + std::to_string(p.pos.line) + ":" + std::to_string(p.pos.column) +
           ": " + p.message;
  }
  for (const auto& f : frames) {
    if (f.left_out > 0) {
      out += "\n  " + left_out_text(f.left_out);
      continue;
    }
    out += "\n  " + f.file + ":" + std::to_string(f.pos.line) + ":" + std::to_string(f.pos.column) +
           ": in " + f.function;
  }
  if (cause) out += "\ncaused by: " + cause->to_string();
  return out;
}

Error fail_error(std::string message) {
  Error e;
  e.message = std::move(message);
  return e;
}

Value make_list(std::vector<Value> items) { return Value(new ListObj(std::move(items))); }
Value make_tuple(std::vector<Value> items) { return Value(new TupleObj(std::move(items))); }

Result<Value> make_dict(std::vector<std::pair<Value, Value>> items) {
  Value d = new_dict();
  try {
    for (auto& [k, v] : items) as_dict(d)->table.insert(k, std::move(v));
  } catch (EvalError& e) {
    return fail_error(e.message);
  }
  return d;
}

Result<Value> make_set(std::vector<Value> items) {
  Value s = new_set();
  try {
    for (auto& v : items) as_set(s)->table.insert(v, Value());
  } catch (EvalError& e) {
    return fail_error(e.message);
  }
  return s;
}

Value make_struct(std::string type_name, std::string name,
                  std::vector<std::pair<std::string, Value>> fields) {
  auto* s = new StructObj();
  s->type_name = std::move(type_name);
  s->name = std::move(name);
  s->fields = std::move(fields);
  return Value(s);
}

const std::vector<std::pair<std::string, Value>>& struct_fields(const Value& v) {
  static const std::vector<std::pair<std::string, Value>> kNone;
  if (!v.is(Kind::kStruct)) return kNone;
  return static_cast<const StructObj*>(v.object())->fields;
}

Result<bool> list_append(const Value& list, Value item) {
  if (!list.is(Kind::kList)) return fail_error("not a list");
  try {
    check_mutable(list, "append to");
  } catch (EvalError& e) {
    return fail_error(e.message);
  }
  as_list(list)->items.push_back(std::move(item));
  return true;
}

Result<bool> dict_set(const Value& dict, Value key, Value value) {
  if (!dict.is(Kind::kDict)) return fail_error("not a dict");
  try {
    check_mutable(dict, "insert into");
    as_dict(dict)->table.insert(key, std::move(value));
  } catch (EvalError& e) {
    return fail_error(e.message);
  }
  return true;
}

namespace {
void freeze_one(const Value& v, std::vector<Value>& work);
}  // namespace

void freeze(const Value& root) {
  // Iterative, so deeply nested values cannot overflow the stack.
  std::vector<Value> work{root};
  while (!work.empty()) {
    Value v = std::move(work.back());
    work.pop_back();
    freeze_one(v, work);
  }
}

namespace {
void freeze(const Value& v, std::vector<Value>& work) { work.push_back(v); }

void freeze_one(const Value& v, std::vector<Value>& work) {
  if (!v.is_object()) return;
  switch (v.kind()) {
    case Kind::kList: {
      ListObj* l = as_list(v);
      if (l->frozen) return;
      l->frozen = true;
      for (const auto& x : l->items) freeze(x, work);
      return;
    }
    case Kind::kTuple:
      for (const auto& x : as_tuple(v)->items) freeze(x, work);
      return;
    case Kind::kDict: {
      DictObj* d = as_dict(v);
      if (d->frozen) return;
      d->frozen = true;
      for (const auto& e : d->table.entries()) {
        if (e.live) {
          freeze(e.key, work);
          freeze(e.value, work);
        }
      }
      return;
    }
    case Kind::kSet:
      as_set(v)->frozen = true;
      return;
    case Kind::kFunction: {
      auto* f = static_cast<FunctionObj*>(v.object());
      for (const auto& d : f->defaults) freeze(d, work);
      for (const auto& cell : f->freevars) freeze(cell->value, work);
      return;
    }
    case Kind::kStruct: {
      // ytt's StarlarkStruct.Freeze does nothing (a TODO in ytt v0.48.0): a list inside
      // data.values or a struct.make value stays mutable when its module's globals freeze.
      // Only modules (starlarkstruct.Module) freeze their members.
      if (is_ytt_struct(v)) return;
      auto* s = static_cast<StructObj*>(v.object());
      if (s->frozen) return;
      s->frozen = true;
      for (const auto& [k, x] : s->fields) freeze(x, work);
      return;
    }
    case Kind::kBuiltin: {
      auto* b = static_cast<BuiltinObj*>(v.object());
      if (b->bound) freeze(b->receiver, work);
      return;
    }
    case Kind::kHost:
      static_cast<HostObject*>(v.object())->freeze();
      return;
    default:
      return;
  }
}
}  // namespace

// ---- Value accessors -------------------------------------------------------------------------

std::string_view Value::type_name() const {
  Kind k = kind();
  if (k == Kind::kStruct) return static_cast<const StructObj*>(u_.o)->type_name;
  if (k == Kind::kHost) return static_cast<const HostObject*>(u_.o)->type_name();
  return to_string(k);
}

std::string_view Value::as_string() const { return str_ref(*this); }

std::optional<int64_t> Value::to_int64() const {
  if (tag_ == Tag::kInt) return u_.i;
  if (kind() == Kind::kInt) return static_cast<const BigIntObj*>(u_.o)->value.to_int64();
  return std::nullopt;
}

std::optional<double> Value::to_double() const {
  if (tag_ == Tag::kInt) return static_cast<double>(u_.i);
  if (tag_ == Tag::kFloat) return u_.f;
  if (kind() == Kind::kInt) return static_cast<const BigIntObj*>(u_.o)->value.to_double();
  return std::nullopt;
}

std::string Value::int_text() const {
  if (tag_ == Tag::kInt) return std::to_string(u_.i);
  return static_cast<const BigIntObj*>(u_.o)->value.to_string();
}

bool Value::truth() const { return starlark::truth(*this); }
// The host API cannot fail: a value too large or too deep to print says so in its text.
std::string Value::str() const {
  try {
    return str_of(*this);
  } catch (const EvalError& e) {
    return "<" + e.message + ">";
  }
}
std::string Value::repr() const {
  try {
    return repr_of(*this);
  } catch (const EvalError& e) {
    return "<" + e.message + ">";
  }
}

size_t Value::len() const {
  int64_t n = length_of(*this);
  return n < 0 ? 0 : static_cast<size_t>(n);
}

std::vector<Value> Value::items() const {
  try {
    return to_vector(*this);
  } catch (EvalError&) {
    return {};
  }
}

std::vector<std::pair<Value, Value>> Value::dict_items() const {
  std::vector<std::pair<Value, Value>> out;
  if (kind() != Kind::kDict) return out;
  for (const auto& e : as_dict(*this)->table.entries()) {
    if (e.live) out.emplace_back(e.key, e.value);
  }
  return out;
}

std::optional<Value> Value::dict_get(const Value& key) const {
  if (kind() != Kind::kDict) return std::nullopt;
  try {
    if (Value* v = as_dict(*this)->table.find(key)) return *v;
  } catch (EvalError&) {
  }
  return std::nullopt;
}

bool operator==(const Value& a, const Value& b) {
  try {
    return values_equal(a, b);
  } catch (EvalError&) {
    return false;
  }
}

std::string HostObject::repr() const { return std::string(type_name()); }
std::optional<Value> HostObject::attr(std::string_view) const { return std::nullopt; }
Result<Value> HostObject::index(const Value& key) const {
  return fail_error("unhandled index operation " + std::string(type_name()) + "[" +
                    std::string(key.type_name()) + "]");
}

// ---- Hash table ------------------------------------------------------------------------------

namespace {
constexpr size_t kLinearScanMax = 8;  // below this many entries a scan beats hashing
}

int HashTable::first_live() const {
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].live) return static_cast<int>(i);
  }
  return -1;
}

int HashTable::lookup(const Value& key, uint32_t h) const {
  if (index_.empty()) {
    for (size_t i = 0; i < entries_.size(); ++i) {
      const Entry& e = entries_[i];
      if (e.live && e.hash == h && values_equal(e.key, key)) return static_cast<int>(i);
    }
    return -1;
  }
  size_t mask = index_.size() - 1;
  for (size_t p = h & mask;; p = (p + 1) & mask) {
    int32_t slot = index_[p];
    if (slot == -1) return -1;
    if (slot >= 0) {
      const Entry& e = entries_[static_cast<size_t>(slot)];
      if (e.live && e.hash == h && values_equal(e.key, key)) return slot;
    }
  }
}

Value* HashTable::find(const Value& key) const {
  uint32_t h = hash_value(key);
  if (live_ == 0) return nullptr;
  int i = lookup(key, h);
  return i < 0 ? nullptr : const_cast<Value*>(&entries_[static_cast<size_t>(i)].value);
}

void HashTable::rebuild_index() {
  // Compact dead entries first.
  if (live_ != entries_.size()) {
    std::vector<Entry> kept;
    kept.reserve(live_);
    for (auto& e : entries_) {
      if (e.live) kept.push_back(std::move(e));
    }
    entries_ = std::move(kept);
  }
  if (entries_.size() < kLinearScanMax) {
    index_.clear();
    return;
  }
  size_t cap = 16;
  while (cap < entries_.size() * 2) cap <<= 1;
  index_.assign(cap, -1);
  size_t mask = cap - 1;
  for (size_t i = 0; i < entries_.size(); ++i) {
    size_t p = entries_[i].hash & mask;
    while (index_[p] != -1) p = (p + 1) & mask;
    index_[p] = static_cast<int32_t>(i);
  }
}

bool HashTable::insert(const Value& key, Value value) {
  allocated_ = true;
  uint32_t h = hash_value(key);
  int i = live_ == 0 ? -1 : lookup(key, h);
  if (i >= 0) {
    entries_[static_cast<size_t>(i)].value = std::move(value);
    return false;
  }
  check_collection_size(live_ + 1);
  entries_.push_back(Entry{key, std::move(value), h, true});
  ++live_;
  if (index_.empty()) {
    if (entries_.size() >= kLinearScanMax) rebuild_index();
  } else if (entries_.size() * 2 > index_.size()) {
    rebuild_index();
  } else {
    size_t mask = index_.size() - 1;
    size_t p = h & mask;
    while (index_[p] != -1) p = (p + 1) & mask;
    index_[p] = static_cast<int32_t>(entries_.size() - 1);
  }
  return true;
}

bool HashTable::erase(const Value& key, Value* removed) {
  if (!allocated_) return false;
  uint32_t h = hash_value(key);
  if (live_ == 0) return false;
  int i = lookup(key, h);
  if (i < 0) return false;
  Entry& e = entries_[static_cast<size_t>(i)];
  if (removed) *removed = std::move(e.value);
  e.live = false;
  e.key = Value();
  e.value = Value();
  --live_;
  // Dead entries stay (index slots still point at them) until the next rebuild.
  if (entries_.size() > 32 && live_ * 2 < entries_.size()) rebuild_index();
  if (index_.empty() && live_ == 0) entries_.clear();
  return true;
}

void HashTable::clear() {
  entries_.clear();
  index_.clear();
  live_ = 0;
}

int64_t RangeObj::length() const {
  if (step > 0 && start < stop) return (stop - start - 1) / step + 1;
  if (step < 0 && start > stop) return (start - stop - 1) / (-step) + 1;
  return 0;
}

// ---- Hashing, equality, ordering -------------------------------------------------------------

namespace {

uint32_t hash_string(const std::string& s) {
  // Java's String.hashCode over bytes; what starlark-go's hash() reports.
  uint32_t h = 0;
  for (unsigned char c : s) h = 31 * h + c;
  return h;
}

uint32_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return static_cast<uint32_t>(x);
}

int depth_guard = 0;
constexpr int kMaxCompareDepth = 1000;  // tuples hashed deeper than this are runaway

struct DepthGuard {
  DepthGuard() {
    if (++depth_guard > kMaxCompareDepth) {
      --depth_guard;
      throw_error("comparison exceeded maximum recursion depth");
    }
  }
  ~DepthGuard() { --depth_guard; }
};

}  // namespace

uint32_t hash_value(const Value& v) {
  switch (v.kind()) {
    case Kind::kNone:
      return 0;
    case Kind::kBool:
      return v.as_bool() ? 1 : 0;
    case Kind::kInt:
      if (v.is_small_int()) return mix(static_cast<uint64_t>(v.as_small_int()));
      return static_cast<const BigIntObj*>(v.object())->value.low_word();
    case Kind::kFloat: {
      double d = v.as_float();
      if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18)
        return mix(static_cast<uint64_t>(static_cast<int64_t>(d)));
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      return mix(bits);
    }
    case Kind::kString: {
      auto* s = static_cast<const StringObj*>(v.object());
      if (!s->hashed) {
        s->hash = hash_string(s->str);
        s->hashed = true;
      }
      return s->hash;
    }
    case Kind::kTuple: {
      DepthGuard g;
      uint32_t h = 0x345678;
      for (const auto& x : as_tuple(v)->items) h = h * 1000003 ^ hash_value(x);
      return h;
    }
    case Kind::kRange:  // starlark-go's own wording for these two
      throw_error("unhashable: range");
    case Kind::kHost:
      if (auto e = static_cast<const HostObject*>(v.object())->hash_error()) throw_error(*e);
      return mix(reinterpret_cast<uintptr_t>(v.object()));
    case Kind::kStruct:  // starlarkstruct.Module's and ytt's StarlarkStruct's Hash errors
      if (v.type_name() == "module") throw_error("unhashable: module");
      throw_error("unhashable type: struct");
    case Kind::kFunction:
    case Kind::kBuiltin:
      return mix(reinterpret_cast<uintptr_t>(v.object()));
    default:
      throw_error("unhashable type: " + std::string(v.type_name()));
  }
}

namespace {

// Compares numbers exactly (int vs float without rounding surprises for normal ranges).
int compare_ints(const Value& a, const Value& b) {
  if (a.is_small_int() && b.is_small_int()) {
    return a.as_small_int() < b.as_small_int() ? -1 : a.as_small_int() > b.as_small_int() ? 1 : 0;
  }
  return BigInt::compare(to_bigint(a), to_bigint(b));
}

// An int against a finite float, exactly (starlark-go compares them as rationals): the int
// against the float's floor, and an int equal to that floor is below a float with a fraction.
int compare_int_float(const Value& i, double f) {
  double fl = std::floor(f);
  int c = compare_ints(i, *int_from_float(fl));
  return c == 0 && f != fl ? -1 : c;
}

bool threeway(BinOp op, int c) {
  switch (op) {
    case BinOp::kEq:
      return c == 0;
    case BinOp::kNe:
      return c != 0;
    case BinOp::kLt:
      return c < 0;
    case BinOp::kLe:
      return c <= 0;
    case BinOp::kGt:
      return c > 0;
    default:
      return c >= 0;
  }
}

}  // namespace

bool compare_number_op(BinOp op, const Value& x, const Value& y) {
  bool xf = x.is_float(), yf = y.is_float();
  if (xf && yf) {
    double a = x.as_float(), b = y.as_float();
    switch (op) {
      case BinOp::kEq:
        return a == b;
      case BinOp::kNe:
        return a != b;
      case BinOp::kLt:
        return a < b;
      case BinOp::kLe:
        return a <= b;
      case BinOp::kGt:
        return a > b;
      default:
        return a >= b;
    }
  }
  if (!xf && !yf) return threeway(op, compare_ints(x, y));
  double f = xf ? x.as_float() : y.as_float();
  if (std::isnan(f)) return false;
  if (std::isinf(f)) return threeway(op, f > 0 ? -1 : 1);
  return threeway(op, xf ? -compare_int_float(y, f) : compare_int_float(x, f));
}

namespace {

// starlark-go bounds every comparison at 10 levels of containers (its `maxdepth`), cyclic or
// not: a value compared at that depth is an error, whatever it is. Lists, tuples and dicts are
// compared element by element even against themselves (a list holding NaN is not equal to
// itself), so a value that contains itself is that error too, never a runaway recursion.
constexpr int kCompareDepth = 10;

void check_compare_depth(int depth) {
  if (depth < 1) throw_error("comparison exceeded maximum recursion depth");
}

bool equal_depth(const Value& a, const Value& b, int depth);

[[noreturn]] void throw_not_ordered(BinOp op, const Value& a, const Value& b) {
  throw_error(std::string(a.type_name()) + " " + std::string(to_string(op)) + " " +
              std::string(b.type_name()) + " not implemented");
}

// starlark-go's CompareDepth for <, <=, > and >=.
bool compare_op_depth(BinOp op, const Value& a, const Value& b, int depth) {
  check_compare_depth(depth);
  if (is_number(a) && is_number(b)) return compare_number_op(op, a, b);
  Kind ka = a.kind(), kb = b.kind();
  if (ka != kb) throw_not_ordered(op, a, b);
  switch (ka) {
    case Kind::kNone:
      return threeway(op, 0);
    case Kind::kBool:
      return threeway(op, static_cast<int>(a.as_bool()) - static_cast<int>(b.as_bool()));
    case Kind::kString: {
      int c = str_ref(a).compare(str_ref(b));
      return threeway(op, c < 0 ? -1 : c > 0 ? 1 : 0);
    }
    case Kind::kList:
    case Kind::kTuple: {  // sliceCompare: the first unequal elements decide
      const auto& x = ka == Kind::kList ? as_list(a)->items : as_tuple(a)->items;
      const auto& y = ka == Kind::kList ? as_list(b)->items : as_tuple(b)->items;
      for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (!equal_depth(x[i], y[i], depth - 1)) return compare_op_depth(op, x[i], y[i], depth - 1);
      }
      return threeway(op, x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0);
    }
    case Kind::kHost: {  // a type with its own comparison (ytt's yamlfragment) fails its way
      const auto& hx = *static_cast<const HostObject*>(a.object());
      const auto& hy = *static_cast<const HostObject*>(b.object());
      if (hx.type_name() == hy.type_name()) {
        auto r = hx.equals(hy);
        if (!r.ok()) throw_error(r.error().message);
      }
      throw_not_ordered(op, a, b);
    }
    default:  // no ordering, not even between a value and itself (starlark-go)
      throw_not_ordered(op, a, b);
  }
}

bool equal_depth(const Value& a, const Value& b, int depth) {
  check_compare_depth(depth);
  if (a.is_small_int() && b.is_small_int()) return a.as_small_int() == b.as_small_int();
  Kind ka = a.kind(), kb = b.kind();
  if (is_number(a) && is_number(b)) return compare_number_op(BinOp::kEq, a, b);
  if (ka != kb) return false;
  switch (ka) {
    case Kind::kNone:
      return true;
    case Kind::kBool:
      return a.as_bool() == b.as_bool();
    case Kind::kString:
      return a.object() == b.object() || str_ref(a) == str_ref(b);
    case Kind::kList:
    case Kind::kTuple: {
      const auto& x = ka == Kind::kList ? as_list(a)->items : as_tuple(a)->items;
      const auto& y = ka == Kind::kList ? as_list(b)->items : as_tuple(b)->items;
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!equal_depth(x[i], y[i], depth - 1)) return false;
      }
      return true;
    }
    case Kind::kDict: {
      const HashTable& x = as_dict(a)->table;
      const HashTable& y = as_dict(b)->table;
      if (x.size() != y.size()) return false;
      for (const auto& e : x.entries()) {
        if (!e.live) continue;
        Value* other = y.find(e.key);
        if (!other || !equal_depth(e.value, *other, depth - 1)) return false;
      }
      return true;
    }
    case Kind::kSet: {
      const HashTable& x = as_set(a)->table;
      const HashTable& y = as_set(b)->table;
      if (x.size() != y.size()) return false;
      for (const auto& e : x.entries()) {
        if (e.live && !y.find(e.key)) return false;
      }
      return true;
    }
    case Kind::kRange: {
      auto* x = as_range(a);
      auto* y = as_range(b);
      int64_t n = x->length();
      if (n != y->length()) return false;
      if (n == 0) return true;
      return x->start == y->start && (n == 1 || x->step == y->step);
    }
    case Kind::kStruct: {
      // ytt's structs and modules define no equality: only the same object is equal
      return a.object() == b.object();
    }
    case Kind::kHost: {
      const auto& x = *static_cast<const HostObject*>(a.object());
      const auto& y = *static_cast<const HostObject*>(b.object());
      if (x.type_name() != y.type_name()) return false;
      auto eq = x.equals(y);
      if (!eq.ok()) throw_error(eq.error().message);
      return *eq;
    }
    default:
      return a.object() == b.object();
  }
}

}  // namespace

bool values_equal(const Value& a, const Value& b) {
  if (a.is(Kind::kString)) return b.is(Kind::kString) && str_ref(a) == str_ref(b);
  return equal_depth(a, b, kCompareDepth);
}

bool compare_op(BinOp op, const Value& a, const Value& b) {
  return compare_op_depth(op, a, b, kCompareDepth);
}

bool truth(const Value& v) {
  switch (v.kind()) {
    case Kind::kNone:
      return false;
    case Kind::kBool:
      return v.as_bool();
    case Kind::kInt:
      return v.is_small_int() ? v.as_small_int() != 0
                              : !static_cast<const BigIntObj*>(v.object())->value.is_zero();
    case Kind::kFloat:
      return v.as_float() != 0.0;
    case Kind::kString:
      return !str_ref(v).empty();
    case Kind::kList:
      return !as_list(v)->items.empty();
    case Kind::kTuple:
      return !as_tuple(v)->items.empty();
    case Kind::kDict:
      return as_dict(v)->table.size() != 0;
    case Kind::kSet:
      return as_set(v)->table.size() != 0;
    case Kind::kRange:
      return as_range(v)->length() != 0;
    case Kind::kHost:
      return static_cast<const HostObject*>(v.object())->truth();
    case Kind::kStruct:  // ytt: a struct is true when it has fields
      return !is_ytt_struct(v) || !static_cast<const StructObj*>(v.object())->fields.empty();
    default:
      return true;
  }
}

// ---- str / repr ------------------------------------------------------------------------------

std::string format_float(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", d);
  return buf;
}

namespace {

// The lists and dicts being printed, outermost first: one met again inside itself prints as
// `[...]` or `{...}`, as in starlark-go. Nesting is bounded only by the stack (ytt prints
// 20,000 levels), so entering a level checks that enough of it is left.
class PrintPath {
 public:
  explicit PrintPath(const Value& v) {
    if (diag::stack_exhausted()) {
      throw_limit("value is nested more than " + std::to_string(path().size()) +
                  " levels deep to print: " + diag::stack_exhausted_reason());
    }
    path().push_back(v.object());
    if (path().size() > kScanned) deeper().insert(v.object());
  }
  ~PrintPath() {
    if (path().size() > kScanned) deeper().erase(path().back());
    path().pop_back();
  }
  PrintPath(const PrintPath&) = delete;
  PrintPath& operator=(const PrintPath&) = delete;
  static bool contains(const Value& v) {
    const auto& p = path();
    auto scanned = p.begin() + static_cast<ptrdiff_t>(std::min(p.size(), kScanned));
    if (std::find(p.begin(), scanned, v.object()) != scanned) return true;
    return p.size() > kScanned && deeper().contains(v.object());
  }

 private:
  // The first levels are searched in order (most values are shallow); the ones below are
  // also kept in a set, so a value nested 100,000 deep prints in linear time, not quadratic.
  static constexpr size_t kScanned = 32;
  static std::vector<const Object*>& path() {
    thread_local std::vector<const Object*> p;
    return p;
  }
  static std::unordered_set<const Object*>& deeper() {
    thread_local std::unordered_set<const Object*> d;
    return d;
  }
};

// A printed value is a string: it stops at the string limit instead of growing without bound
// (a list holding one 16 MiB string a thousand times).
void check_printed_size(const std::string& out) { check_string_size(out.size()); }

void append_value(std::string& out, const Value& v, bool repr) {
  switch (v.kind()) {
    case Kind::kNone:
      out += "None";
      return;
    case Kind::kBool:
      out += v.as_bool() ? "True" : "False";
      return;
    case Kind::kInt:
      out += v.int_text();
      return;
    case Kind::kFloat:
      out += format_float(v.as_float());
      return;
    case Kind::kString:
      if (repr) {
        gocompat::append_quoted(out, str_ref(v));  // starlark-go's String.String
      } else {
        out += str_ref(v);
      }
      return;
    case Kind::kList:
    case Kind::kTuple: {
      bool list = v.kind() == Kind::kList;
      if (list && PrintPath::contains(v)) {
        out += "[...]";
        return;
      }
      PrintPath enter(v);
      const auto& items = list ? as_list(v)->items : as_tuple(v)->items;
      out.push_back(list ? '[' : '(');
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        append_value(out, items[i], true);
        check_printed_size(out);
      }
      if (!list && items.size() == 1) out.push_back(',');
      out.push_back(list ? ']' : ')');
      return;
    }
    case Kind::kDict: {
      if (PrintPath::contains(v)) {
        out += "{...}";
        return;
      }
      PrintPath enter(v);
      out.push_back('{');
      bool first = true;
      for (const auto& e : as_dict(v)->table.entries()) {
        if (!e.live) continue;
        if (!first) out += ", ";
        first = false;
        append_value(out, e.key, true);
        out += ": ";
        append_value(out, e.value, true);
        check_printed_size(out);
      }
      out.push_back('}');
      return;
    }
    case Kind::kSet: {
      out += "set([";
      bool first = true;
      for (const auto& e : as_set(v)->table.entries()) {
        if (!e.live) continue;
        if (!first) out += ", ";
        first = false;
        append_value(out, e.key, true);
        check_printed_size(out);
      }
      out += "])";
      return;
    }
    case Kind::kRange: {
      auto* r = as_range(v);
      out += "range(";
      if (r->start != 0 || r->step != 1) out += std::to_string(r->start) + ", ";
      out += std::to_string(r->stop);
      if (r->step != 1) out += ", " + std::to_string(r->step);
      out += ")";
      return;
    }
    case Kind::kFunction:
      out += "<function " + static_cast<const FunctionObj*>(v.object())->fn->name + ">";
      return;
    case Kind::kBuiltin: {
      auto* b = static_cast<const BuiltinObj*>(v.object());
      if (b->bound) {
        out += "<built-in method " + b->name + " of " + std::string(b->receiver.type_name()) +
               " value>";
      } else {
        out += "<built-in function " + b->name + ">";
      }
      return;
    }
    case Kind::kStruct: {
      auto* s = static_cast<const StructObj*>(v.object());
      if (s->type_name == "module") {
        out += "<module \"" + s->name + "\">";
        return;
      }
      out += "struct(...)";  // ytt never shows a struct's fields
      return;
    }
    case Kind::kHost: {
      auto* h = static_cast<const HostObject*>(v.object());
      out += repr ? h->repr() : h->str();
      return;
    }
  }
}

}  // namespace

void append_str(std::string& out, const Value& v) { append_value(out, v, false); }
void append_repr(std::string& out, const Value& v) { append_value(out, v, true); }
std::string repr_of(const Value& v) {
  std::string s;
  append_value(s, v, true);
  return s;
}
std::string str_of(const Value& v) {
  if (v.kind() == Kind::kString) return str_ref(v);
  std::string s;
  append_value(s, v, false);
  return s;
}

// ---- Iteration and length --------------------------------------------------------------------

std::string not_iterable(const Value& v) {
  return std::string(v.type_name()) + " value is not iterable";
}

std::vector<Value> to_vector(const Value& x) {
  switch (x.kind()) {
    case Kind::kList:
      return as_list(x)->items;
    case Kind::kTuple:
      return as_tuple(x)->items;
    default:
      break;
  }
  std::vector<Value> out;
  int64_t n = length_of(x);
  if (n > 0) {
    check_collection_size(static_cast<size_t>(n));
    out.reserve(static_cast<size_t>(n));
  }
  for_each(x, [&](const Value& v) { out.push_back(v); });
  return out;
}

std::vector<Value> struct_keys(const Value& v) {
  std::vector<Value> out;
  for (const auto& [k, _] : static_cast<const StructObj*>(v.object())->fields) {
    out.push_back(Value::from_string(k));
  }
  return out;
}

int64_t length_of(const Value& v) {
  switch (v.kind()) {
    case Kind::kStruct:
      return is_ytt_struct(v)
                 ? static_cast<int64_t>(static_cast<const StructObj*>(v.object())->fields.size())
                 : -1;
    case Kind::kString:
      return static_cast<int64_t>(str_ref(v).size());
    case Kind::kList:
      return static_cast<int64_t>(as_list(v)->items.size());
    case Kind::kTuple:
      return static_cast<int64_t>(as_tuple(v)->items.size());
    case Kind::kDict:
      return static_cast<int64_t>(as_dict(v)->table.size());
    case Kind::kSet:
      return static_cast<int64_t>(as_set(v)->table.size());
    case Kind::kRange:
      return as_range(v)->length();
    case Kind::kHost: {
      auto n = static_cast<const HostObject*>(v.object())->len();
      return n ? static_cast<int64_t>(*n) : -1;
    }
    default:
      return -1;
  }
}

void check_mutable(const Value& c, std::string_view verb) {
  const Mutable* m = nullptr;
  std::string_view type = "list";
  switch (c.kind()) {
    case Kind::kList:
      m = as_list(c);
      break;
    case Kind::kDict:
      m = as_dict(c);
      type = "hash table";
      break;
    case Kind::kSet:
      m = as_set(c);
      type = "hash table";
      break;
    default:
      return;
  }
  if (m->frozen) throw_error("cannot " + std::string(verb) + " frozen " + std::string(type));
  if (m->iterating > 0)
    throw_error("cannot " + std::string(verb) + " " + std::string(type) + " during iteration");
}

// ---- Operators -------------------------------------------------------------------------------

std::string_view to_string(BinOp op) {
  switch (op) {
    case BinOp::kAnd:
      return "and";
    case BinOp::kOr:
      return "or";
    case BinOp::kEq:
      return "==";
    case BinOp::kNe:
      return "!=";
    case BinOp::kLt:
      return "<";
    case BinOp::kGt:
      return ">";
    case BinOp::kLe:
      return "<=";
    case BinOp::kGe:
      return ">=";
    case BinOp::kIn:
      return "in";
    case BinOp::kNotIn:
      return "not in";
    case BinOp::kPlus:
      return "+";
    case BinOp::kMinus:
      return "-";
    case BinOp::kStar:
      return "*";
    case BinOp::kSlash:
      return "/";
    case BinOp::kSlashSlash:
      return "//";
    case BinOp::kPercent:
      return "%";
    case BinOp::kAmp:
      return "&";
    case BinOp::kPipe:
      return "|";
    case BinOp::kCaret:
      return "^";
    case BinOp::kShl:
      return "<<";
    case BinOp::kShr:
      return ">>";
  }
  return "?";
}

// ---- Indexing and slicing --------------------------------------------------------------------

// starlark-go's AsInt32: the error text when `i` is not an int that fits 32 bits.
std::string int32_error(const Value& i) {
  if (!(i.is_small_int() || i.is(Kind::kInt)))
    return "got " + std::string(i.type_name()) + ", want int";
  int64_t k;
  if (!as_index(i, &k) || k < INT32_MIN || k > INT32_MAX) return i.int_text() + " out of range";
  return {};
}

bool as_index(const Value& v, int64_t* out) {
  auto i = v.to_int64();
  if (!i) return false;
  *out = *i;
  return true;
}

namespace {

// An index into a sequence of length n; `for_get` selects getIndex's "T index: " prefix for
// conversion errors (assignment reports them bare).
int64_t seq_index(const Value& x, const Value& i, int64_t n, bool for_get = true) {
  std::string err = int32_error(i);
  if (!err.empty()) throw_error(for_get ? std::string(x.type_name()) + " index: " + err : err);
  int64_t k = *i.to_int64();
  int64_t orig = k;
  if (k < 0) k += n;
  if (k < 0 || k >= n) {
    if (n == 0)
      throw_error("index " + std::to_string(orig) + " out of range: empty " +
                  std::string(x.type_name()));
    throw_error(std::string(x.type_name()) + " index " + std::to_string(orig) + " out of range [" +
                std::to_string(-n) + ":" + std::to_string(n - 1) + "]");
  }
  return k;
}

}  // namespace

Value index_value(const Value& x, const Value& i) {
  switch (x.kind()) {
    case Kind::kList: {
      auto& items = as_list(x)->items;
      return items[static_cast<size_t>(seq_index(x, i, static_cast<int64_t>(items.size())))];
    }
    case Kind::kTuple: {
      auto& items = as_tuple(x)->items;
      return items[static_cast<size_t>(seq_index(x, i, static_cast<int64_t>(items.size())))];
    }
    case Kind::kString: {
      const std::string& s = str_ref(x);
      int64_t k = seq_index(x, i, static_cast<int64_t>(s.size()));
      return str_value(std::string(1, s[static_cast<size_t>(k)]));
    }
    case Kind::kRange: {
      auto* r = as_range(x);
      return Value::from_int(r->at(seq_index(x, i, r->length())));
    }
    case Kind::kDict: {
      Value* v = as_dict(x)->table.find(i);
      if (!v) throw_error("key " + repr_of(i) + " not in dict");
      return *v;
    }
    case Kind::kStruct: {
      auto* s = static_cast<const StructObj*>(x.object());
      if (s->type_name == "module") break;
      if (!i.is(Kind::kString)) {
        throw_error("expected a string, but was " + std::string(i.type_name()));
      }
      for (const auto& [k, v] : s->fields) {
        if (k == i.as_string()) return v;
      }
      throw_error("key " + repr_of(i) + " not in " + s->type_name);
    }
    case Kind::kHost: {
      auto r = static_cast<const HostObject*>(x.object())->index(i);
      if (!r.ok()) throw_error(r.error().message);
      return *r;
    }
    default:
      break;
  }
  throw_error("unhandled index operation " + std::string(x.type_name()) + "[" +
              std::string(i.type_name()) + "]");
}

void set_index(const Value& x, const Value& i, const Value& v) {
  switch (x.kind()) {
    case Kind::kList: {
      check_mutable(x, "assign to element of");
      auto& items = as_list(x)->items;
      items[static_cast<size_t>(seq_index(x, i, static_cast<int64_t>(items.size()), false))] = v;
      return;
    }
    case Kind::kDict:
      check_mutable(x, "insert into");
      as_dict(x)->table.insert(i, v);
      return;
    case Kind::kHost:
      if (auto e = static_cast<const HostObject*>(x.object())->set_index_error()) {
        throw_error(e->message);
      }
      break;
    default:
      break;
  }
  throw_error(std::string(x.type_name()) + " value does not support item assignment");
}

namespace {

// starlark-go's slice bounds: a 32-bit step ("got T for slice step, want int"), then start and
// end as 32-bit indices, clamped to the sequence for the step's direction.
void slice_indices(const Value& lo, const Value& hi, const Value& st, int64_t n, int64_t* start,
                   int64_t* stop, int64_t* step) {
  *step = 1;
  if (!st.is_none()) {
    if (!int32_error(st).empty())
      throw_error("got " + std::string(st.type_name()) + " for slice step, want int");
    *step = *st.to_int64();
    if (*step == 0) throw_error("zero is not a valid slice step");
  }
  auto bound = [&](const Value& v, int64_t dflt, const char* which) -> int64_t {
    if (v.is_none()) return dflt;
    if (!int32_error(v).empty())
      throw_error(std::string("invalid ") + which + " index: got " + std::string(v.type_name()) +
                  ", want int");
    int64_t k = *v.to_int64();
    return k < 0 ? k + n : k;
  };
  // starlark-go's slice(): the clamping is asymmetric for a negative step (a start only
  // from above, an end only from below), then an empty slice collapses onto one bound; the
  // bounds show in a sliced range's repr.
  if (*step > 0) {
    *start = std::clamp<int64_t>(bound(lo, 0, "start"), 0, n);
    *stop = std::clamp<int64_t>(bound(hi, n, "end"), 0, n);
    if (*stop < *start) *stop = *start;
  } else {
    *start = std::min<int64_t>(bound(lo, n - 1, "start"), n - 1);
    *stop = std::max<int64_t>(bound(hi, -1, "end"), -1);
    if (*start < *stop) *start = *stop;
  }
}

}  // namespace

Value slice_value(const Value& x, const Value& lo, const Value& hi, const Value& st) {
  int64_t n = length_of(x);
  Kind k = x.kind();
  if (k == Kind::kHost) {
    auto panic = static_cast<const HostObject*>(x.object())->slice_panic();
    if (panic) {
      int64_t start, stop, step;
      slice_indices(lo, hi, st, std::max<int64_t>(n, 0), &start, &stop, &step);
      throw_go_panic(*panic);
    }
  }
  if (k != Kind::kString && k != Kind::kList && k != Kind::kTuple && k != Kind::kRange)
    throw_error("invalid slice operand " + std::string(x.type_name()));
  int64_t start, stop, step;
  slice_indices(lo, hi, st, n, &start, &stop, &step);
  if (k == Kind::kRange) {
    // starlark-go's rangeValue.Slice maps both clamped bounds through the range, so the stop
    // it prints is r.start + r.step*stop, not normalised to the length.
    auto* r = as_range(x);
    return Value(new RangeObj(r->at(start), r->at(stop), r->step * step));
  }
  if (k == Kind::kString) {
    const std::string& s = str_ref(x);
    std::string out;
    if (step == 1) {
      if (stop > start)
        out = s.substr(static_cast<size_t>(start), static_cast<size_t>(stop - start));
    } else {
      for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
        out.push_back(s[static_cast<size_t>(i)]);
    }
    return str_value(std::move(out));
  }
  const auto& items = k == Kind::kList ? as_list(x)->items : as_tuple(x)->items;
  std::vector<Value> out;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
    out.push_back(items[static_cast<size_t>(i)]);
  return k == Kind::kList ? list_value(std::move(out)) : tuple_value(std::move(out));
}

}  // namespace hintkit::starlark

// The value layer (values.cpp): concrete heap objects, the ordered hash table behind dict and
// set, construction under the size limits, equality, ordering, hashing, str/repr, iteration,
// indexing and slicing. It stands on thread.h (the running thread's budget and the internal
// error exception) and nothing above it; the operators (operators.h), string formatting
// (format.h), attributes and the builtins (builtins.h) and the evaluator (eval.h) are built on
// it. Internal to starlark/.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "starlark/ast.h"
#include "starlark/bigint.h"
#include "starlark/starlark.h"
#include "starlark/thread.h"

namespace hintkit::starlark {

struct Function;
struct ProgramImpl;

// ---- Objects ---------------------------------------------------------------------------------

// Bytes held by every live StringObj (for the memory budget, `kMaxLiveStringBytes`).
size_t live_string_bytes();

struct StringObj : Object {
  explicit StringObj(std::string s);
  ~StringObj() override;
  std::string str;
  mutable uint32_t hash = 0;
  mutable bool hashed = false;
};

struct BigIntObj : Object {
  explicit BigIntObj(BigInt v) : Object(Kind::kInt), value(std::move(v)) {}
  BigInt value;
};

// Guards against mutation: frozen values and containers being iterated.
struct Mutable : GcLink {
  Mutable() = default;
  Mutable(const Mutable&) = delete;
  Mutable& operator=(const Mutable&) = delete;
  ~Mutable() {
    if (gc_next) {
      gc_prev->gc_next = gc_next;
      gc_next->gc_prev = gc_prev;
    }
  }
  bool frozen = false;
  Kind gc_kind = Kind::kNone;  // which container this is: the collector's way back to it
  bool gc_old = false;         // outlived a collection (in `ContainerList::old`)
  int iterating = 0;
};

// Links a new container into the list of the running thread (none: left unlinked).
void link_container(Mutable* m, Kind kind);

struct ListObj : Object, Mutable {
  explicit ListObj(std::vector<Value> v) : Object(Kind::kList), items(std::move(v)) {
    link_container(this, Kind::kList);
  }
  std::vector<Value> items;
};

struct TupleObj : Object {
  explicit TupleObj(std::vector<Value> v) : Object(Kind::kTuple), items(std::move(v)) {}
  std::vector<Value> items;
};

// Insertion-ordered hash table; small tables are scanned linearly.
class HashTable {
 public:
  struct Entry {
    Value key;
    Value value;
    uint32_t hash = 0;
    bool live = true;
  };
  Value* find(const Value& key) const;  // throws if unhashable
  // Returns true when the key was new.
  bool insert(const Value& key, Value value);
  bool erase(const Value& key, Value* removed = nullptr);
  void clear();
  size_t size() const { return live_; }
  // Live entries in order; callers skip `!live`.
  const std::vector<Entry>& entries() const { return entries_; }
  // First live entry index, or -1.
  int first_live() const;

 private:
  int lookup(const Value& key, uint32_t h) const;
  void rebuild_index();
  std::vector<Entry> entries_;
  std::vector<int32_t> index_;  // open addressing into entries_; -1 empty
  size_t live_ = 0;
  // starlark-go allocates a table on the first insert (even one that fails on an unhashable
  // key); deleting from a never-allocated table finds nothing without hashing the key.
  bool allocated_ = false;
};

struct DictObj : Object, Mutable {
  DictObj() : Object(Kind::kDict) { link_container(this, Kind::kDict); }
  HashTable table;
};

struct SetObj : Object, Mutable {
  SetObj() : Object(Kind::kSet) { link_container(this, Kind::kSet); }
  HashTable table;
};

struct RangeObj : Object {
  RangeObj(int64_t a, int64_t b, int64_t c) : Object(Kind::kRange), start(a), stop(b), step(c) {}
  int64_t start, stop, step;
  int64_t length() const;
  int64_t at(int64_t i) const { return start + i * step; }
};

struct Cell {
  Value value;
};
using CellPtr = std::shared_ptr<Cell>;

// Module-level state shared by the functions a program defines.
struct ModuleEnv {
  std::shared_ptr<const ProgramImpl> program;
  std::vector<Value> globals;
  std::vector<Value> predeclared;
  bool released = false;  // the cycle collector dropped the globals (starlark/cycles.h)
};

struct FunctionObj : Object {
  FunctionObj() : Object(Kind::kFunction) {}
  ~FunctionObj() override;
  std::shared_ptr<Function> fn;
  std::shared_ptr<ModuleEnv> module;
  std::vector<Value> defaults;  // one per parameter with a default, in order
  std::vector<CellPtr> freevars;
  bool tracked = false;  // a closure known to the cycle collector
};

// Internal builtins are plain function pointers; host ones a NativeFn.
using BuiltinFn = Value (*)(const Call& call);

struct BuiltinObj : Object {
  BuiltinObj() : Object(Kind::kBuiltin) {}
  std::string name;
  BuiltinFn fn = nullptr;
  NativeFn native;
  Value receiver;
  bool bound = false;
};

struct StructObj : Object {
  StructObj() : Object(Kind::kStruct) {}
  std::string type_name;
  std::string name;
  std::vector<std::pair<std::string, Value>> fields;  // in the order given (ytt keeps it)
  bool frozen = false;
};

// ytt's struct values iterate over, count and test their field names, in order, and are
// mappings of them. Every StructObj but a module is one: struct.make's ("struct") and the ytt
// module values that embed ytt's StarlarkStruct under their own type name (assertions, url and
// ip values).
inline bool is_ytt_struct(const Value& v) {
  return v.kind() == Kind::kStruct &&
         static_cast<const StructObj*>(v.object())->type_name != "module";
}
std::vector<Value> struct_keys(const Value& v);

// The one "unbound" marker put in slots before assignment.
Value unbound();
inline bool is_unbound(const Value& v) { return v.is_object() && v.object() == unbound().object(); }

// ---- Value construction ----------------------------------------------------------------------

Value str_value(std::string s);  // checks the string size limit and memory budget; charges steps
// Charges the running thread (if any) for a new string of `n` bytes (as `charge_bytes`) and
// holds it to the live-string memory budget.
void charge_new_string(size_t n);
Value int_value(BigInt v);                   // normalizes to small int when it fits
Value list_value(std::vector<Value> items);  // checks the collection limit
Value tuple_value(std::vector<Value> items);
Value new_dict();
Value new_set();

inline const std::string& str_ref(const Value& v) {
  return static_cast<const StringObj*>(v.object())->str;
}
inline ListObj* as_list(const Value& v) { return static_cast<ListObj*>(v.object()); }
inline TupleObj* as_tuple(const Value& v) { return static_cast<TupleObj*>(v.object()); }
inline DictObj* as_dict(const Value& v) { return static_cast<DictObj*>(v.object()); }
inline SetObj* as_set(const Value& v) { return static_cast<SetObj*>(v.object()); }
inline RangeObj* as_range(const Value& v) { return static_cast<RangeObj*>(v.object()); }
BigInt to_bigint(const Value& v);  // kInt

// ---- Operations ------------------------------------------------------------------------------

uint32_t hash_value(const Value& v);                // throws "unhashable type: T"
bool values_equal(const Value& a, const Value& b);  // may throw on deep recursion
// Ordering for <, sorted(), min/max: throws "unsupported comparison".
// starlark-go's Compare for <, <=, > or >= (an error when the types have no order).
bool compare_op(BinOp op, const Value& a, const Value& b);
inline bool is_number(const Value& v) {
  return v.is_small_int() || v.is_float() || v.is(Kind::kInt);
}
// starlark-go's CompareDepth for two numbers, with this version's quirks: floats compare as
// IEEE does (NaN unordered, unequal to itself); an int against a NaN is false for every
// operator, != included; an int against an infinity takes the infinity's sign as the answer
// whichever side the infinity is on (+Inf > 1 is false).
bool compare_number_op(BinOp op, const Value& x, const Value& y);
void append_str(std::string& out, const Value& v);
void append_repr(std::string& out, const Value& v);
std::string repr_of(const Value& v);
std::string str_of(const Value& v);
std::string format_float(double d);  // %g style, like starlark-go's str()
bool truth(const Value& v);

// Calls `f(elem)` for each element; "T value is not iterable" otherwise. Lists and dicts are
// marked as iterating so mutation during iteration fails.
template <typename F>
void for_each(const Value& iterable, F&& f);
// Materializes an iterable.
std::vector<Value> to_vector(const Value& iterable);
std::string not_iterable(const Value& v);
// len(), or -1 when the value has none.
int64_t length_of(const Value& v);

// Mutation checks: message like "append: cannot append to frozen list".
void check_mutable(const Value& container, std::string_view verb);

// Indexing and slicing (x[i], x[i] = v, x[lo:hi:step]).
Value index_value(const Value& x, const Value& i);
void set_index(const Value& x, const Value& i, const Value& v);
Value slice_value(const Value& x, const Value& lo, const Value& hi, const Value& step);

// Integer helpers.
bool as_index(const Value& v, int64_t* out);  // int that fits int64
// starlark-go's AsInt32: the error text when `i` is not an int that fits 32 bits, else empty.
std::string int32_error(const Value& i);

template <typename F>
void for_each(const Value& x, F&& f) {
  switch (x.kind()) {
    case Kind::kList: {
      ListObj* l = as_list(x);
      Value keep = x;
      ++l->iterating;
      struct Guard {
        ListObj* l;
        ~Guard() { --l->iterating; }
      } g{l};
      for (size_t i = 0; i < l->items.size(); ++i) f(l->items[i]);
      return;
    }
    case Kind::kTuple: {
      Value keep = x;
      for (const Value& v : as_tuple(x)->items) f(v);
      return;
    }
    case Kind::kDict:
    case Kind::kSet: {
      Value keep = x;
      Mutable* m = x.kind() == Kind::kDict ? static_cast<Mutable*>(as_dict(x))
                                           : static_cast<Mutable*>(as_set(x));
      const HashTable& t = x.kind() == Kind::kDict ? as_dict(x)->table : as_set(x)->table;
      ++m->iterating;
      struct Guard {
        Mutable* m;
        ~Guard() { --m->iterating; }
      } g{m};
      for (size_t i = 0; i < t.entries().size(); ++i) {
        if (t.entries()[i].live) f(t.entries()[i].key);
      }
      return;
    }
    case Kind::kRange: {
      RangeObj* r = as_range(x);
      int64_t n = r->length();
      for (int64_t i = 0; i < n; ++i) f(Value::from_int(r->at(i)));
      return;
    }
    case Kind::kHost: {
      auto items = static_cast<const HostObject*>(x.object())->iterate();
      if (!items) throw_error(not_iterable(x));
      for (const Value& v : *items) f(v);
      return;
    }
    case Kind::kStruct:
      if (is_ytt_struct(x)) {
        for (const Value& k : struct_keys(x)) f(k);
        return;
      }
      throw_error(not_iterable(x));
    default:
      throw_error(not_iterable(x));
  }
}

// Pull-style iteration (for loops and comprehensions, which may break out early). Marks lists,
// dicts and sets as being iterated for its lifetime.
class Iter {
 public:
  explicit Iter(const Value& x) : x_(x), kind_(x.kind()) {
    switch (kind_) {
      case Kind::kList:
        m_ = as_list(x);
        break;
      case Kind::kDict:
        m_ = as_dict(x);
        table_ = &as_dict(x)->table;
        break;
      case Kind::kSet:
        m_ = as_set(x);
        table_ = &as_set(x)->table;
        break;
      case Kind::kTuple:
        break;
      case Kind::kRange:
        n_ = as_range(x)->length();
        break;
      case Kind::kHost: {
        auto items = static_cast<const HostObject*>(x.object())->iterate();
        if (!items) throw_error(not_iterable(x));
        host_ = std::move(*items);
        break;
      }
      case Kind::kStruct:
        if (!is_ytt_struct(x)) throw_error(not_iterable(x));
        host_ = struct_keys(x);
        break;
      default:
        throw_error(not_iterable(x));
    }
    if (m_) ++m_->iterating;
  }
  ~Iter() {
    if (m_) --m_->iterating;
  }
  Iter(const Iter&) = delete;
  Iter& operator=(const Iter&) = delete;

  bool next(Value& out) {
    switch (kind_) {
      case Kind::kList: {
        auto& v = as_list(x_)->items;
        if (i_ >= v.size()) return false;
        out = v[i_++];
        return true;
      }
      case Kind::kTuple: {
        auto& v = as_tuple(x_)->items;
        if (i_ >= v.size()) return false;
        out = v[i_++];
        return true;
      }
      case Kind::kDict:
      case Kind::kSet: {
        const auto& e = table_->entries();
        while (i_ < e.size() && !e[i_].live) ++i_;
        if (i_ >= e.size()) return false;
        out = e[i_++].key;
        return true;
      }
      case Kind::kRange:
        if (static_cast<int64_t>(i_) >= n_) return false;
        out = Value::from_int(as_range(x_)->at(static_cast<int64_t>(i_++)));
        return true;
      default:
        if (i_ >= host_.size()) return false;
        out = host_[i_++];
        return true;
    }
  }

 private:
  Value x_;
  Kind kind_;
  size_t i_ = 0;
  int64_t n_ = 0;
  Mutable* m_ = nullptr;
  const HashTable* table_ = nullptr;
  std::vector<Value> host_;
};

}  // namespace hintkit::starlark

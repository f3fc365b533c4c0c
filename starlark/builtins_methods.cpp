// Methods of the built-in types: string, list, dict and set (ytt's dialect has exactly the
// methods listed in the tables at the bottom of this file).
#include <algorithm>
#include <cctype>

#include "starlark/builtins.h"
#include "starlark/runes.h"

namespace hintkit::starlark {

uint32_t decode_utf8(std::string_view s, size_t i, size_t* len);
std::string encode_utf8(uint32_t cp);
void dict_update_from(const Call& c, const Value& d);

namespace {

const std::string& recv_str(const Call& c) { return str_ref(*c.receiver); }

bool is_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

// ---- String methods --------------------------------------------------------------------------

// Optional [start, end] slice arguments shared by find/count/startswith/...
void str_bounds(const Call& c, size_t first, size_t n, size_t* lo, size_t* hi) {
  int64_t len = static_cast<int64_t>(n);
  int64_t a = 0, b = len;
  auto get = [&](size_t i, int64_t dflt) -> int64_t {
    if (c.args.size() <= i || c.args[i].is_none()) return dflt;
    int64_t v;
    if (!as_index(c.args[i], &v)) {
      if (c.args[i].kind() != Kind::kInt)
        bfail(c, "for parameter " + std::to_string(i + 1) + ": got " +
                     std::string(c.args[i].type_name()) + ", want int");
      v = c.args[i].to_double() > 0 ? len : -len - 1;
    }
    if (v < 0) v += len;
    return std::clamp<int64_t>(v, 0, len);
  };
  a = get(first, 0);
  b = get(first + 1, len);
  *lo = static_cast<size_t>(a);
  *hi = static_cast<size_t>(std::max(a, b));
}

Value str_find_impl(const Call& c, bool reverse, bool must) {
  unpack_positional(c, 1, 3);
  const std::string& s = recv_str(c);
  const std::string& sub = want_string(c, c.args[0], "1");
  size_t lo, hi;
  str_bounds(c, 1, s.size(), &lo, &hi);
  std::string_view window = std::string_view(s).substr(lo, hi - lo);
  size_t p = reverse ? window.rfind(sub) : window.find(sub);
  if (p == std::string_view::npos) {
    if (must) bfail(c, "substring not found");
    return Value::from_int(-1);
  }
  return Value::from_int(static_cast<int64_t>(lo + p));
}

Value s_find(const Call& c) { return str_find_impl(c, false, false); }
Value s_rfind(const Call& c) { return str_find_impl(c, true, false); }
Value s_index(const Call& c) { return str_find_impl(c, false, true); }
Value s_rindex(const Call& c) { return str_find_impl(c, true, true); }

Value s_count(const Call& c) {
  unpack_positional(c, 1, 3);
  const std::string& s = recv_str(c);
  const std::string& sub = want_string(c, c.args[0], "1");
  size_t lo, hi;
  str_bounds(c, 1, s.size(), &lo, &hi);
  std::string_view w = std::string_view(s).substr(lo, hi - lo);
  if (sub.empty()) return Value::from_int(static_cast<int64_t>(w.size() + 1));
  int64_t n = 0;
  for (size_t p = w.find(sub); p != std::string_view::npos; p = w.find(sub, p + sub.size())) ++n;
  return Value::from_int(n);
}

Value starts_ends(const Call& c, bool ends) {
  unpack_positional(c, 1, 3);
  const std::string& s = recv_str(c);
  size_t lo, hi;
  str_bounds(c, 1, s.size(), &lo, &hi);
  std::string_view w = std::string_view(s).substr(lo, hi - lo);
  auto test = [&](const Value& v) {
    if (v.kind() != Kind::kString)
      bfail(c, "for parameter 1: got " + std::string(v.type_name()) +
                   ", want string or tuple of strings");
    return ends ? w.ends_with(str_ref(v)) : w.starts_with(str_ref(v));
  };
  if (c.args[0].kind() == Kind::kTuple) {
    for (const auto& v : as_tuple(c.args[0])->items) {
      if (test(v)) return Value::from_bool(true);
    }
    return Value::from_bool(false);
  }
  return Value::from_bool(test(c.args[0]));
}
Value s_startswith(const Call& c) { return starts_ends(c, false); }
Value s_endswith(const Call& c) { return starts_ends(c, true); }

Value strip_impl(const Call& c, bool left, bool right) {
  unpack_positional(c, 0, 1);
  const std::string& s = recv_str(c);
  bool custom = !c.args.empty() && !c.args[0].is_none();
  std::string chars = custom ? want_string(c, c.args[0], "1") : std::string();
  auto strip_me = [&](char ch) {
    return custom ? chars.find(ch) != std::string::npos : is_space(ch);
  };
  size_t a = 0, b = s.size();
  if (left) {
    while (a < b && strip_me(s[a])) ++a;
  }
  if (right) {
    while (b > a && strip_me(s[b - 1])) --b;
  }
  return str_value(s.substr(a, b - a));
}
Value s_strip(const Call& c) { return strip_impl(c, true, true); }
Value s_lstrip(const Call& c) { return strip_impl(c, true, false); }
Value s_rstrip(const Call& c) { return strip_impl(c, false, true); }

Value split_impl(const Call& c, bool reverse) {
  Value sep, maxsplit;
  unpack_args(c, {"sep?", "maxsplit?"}, {&sep, &maxsplit});
  const std::string& s = recv_str(c);
  int64_t max = -1;
  if (given(maxsplit) && !maxsplit.is_none()) max = want_int(c, maxsplit, "maxsplit");
  std::vector<Value> out;
  if (!given(sep) || sep.is_none()) {
    // Whitespace splitting: runs of spaces separate, no empty fields.
    std::vector<std::pair<size_t, size_t>> fields;
    if (!reverse) {
      size_t i = 0;
      while (i < s.size()) {
        while (i < s.size() && is_space(s[i])) ++i;
        if (i >= s.size()) break;
        if (max >= 0 && static_cast<int64_t>(fields.size()) == max) {
          size_t e = s.size();
          while (e > i && is_space(s[e - 1])) --e;
          fields.emplace_back(i, e);
          break;
        }
        size_t j = i;
        while (j < s.size() && !is_space(s[j])) ++j;
        fields.emplace_back(i, j);
        i = j;
      }
    } else {
      size_t i = s.size();
      while (i > 0) {
        while (i > 0 && is_space(s[i - 1])) --i;
        if (i == 0) break;
        if (max >= 0 && static_cast<int64_t>(fields.size()) == max) {
          size_t b = 0;
          while (b < i && is_space(s[b])) ++b;
          fields.emplace_back(b, i);
          break;
        }
        size_t j = i;
        while (j > 0 && !is_space(s[j - 1])) --j;
        fields.emplace_back(j, i);
        i = j;
      }
      std::reverse(fields.begin(), fields.end());
    }
    for (auto [a, b] : fields) out.push_back(str_value(s.substr(a, b - a)));
    return list_value(std::move(out));
  }
  const std::string& sp = want_string(c, sep, "sep");
  if (sp.empty()) bfail(c, "empty separator");
  if (!reverse) {
    size_t start = 0;
    int64_t n = 0;
    while (max < 0 || n < max) {
      size_t p = s.find(sp, start);
      if (p == std::string::npos) break;
      out.push_back(str_value(s.substr(start, p - start)));
      start = p + sp.size();
      ++n;
    }
    out.push_back(str_value(s.substr(start)));
  } else {
    size_t end = s.size();
    int64_t n = 0;
    std::vector<Value> rev;
    while (max < 0 || n < max) {
      if (end < sp.size()) break;
      size_t p = s.rfind(sp, end - sp.size());
      if (p == std::string::npos) break;
      rev.push_back(str_value(s.substr(p + sp.size(), end - p - sp.size())));
      end = p;
      ++n;
    }
    rev.push_back(str_value(s.substr(0, end)));
    out.assign(rev.rbegin(), rev.rend());
  }
  check_collection_size(out.size());
  return list_value(std::move(out));
}
Value s_split(const Call& c) { return split_impl(c, false); }
Value s_rsplit(const Call& c) { return split_impl(c, true); }

Value s_join(const Call& c) {
  unpack_positional(c, 1, 1);
  const std::string& sep = recv_str(c);
  std::string out;
  bool first = true;
  const Value& it = c.args[0];
  want_iterable(c, it, "1");
  for_each(it, [&](const Value& v) {
    if (v.kind() != Kind::kString)
      bfail(c, "in list, want string, got " + std::string(v.type_name()));
    if (!first) out += sep;
    first = false;
    out += str_ref(v);
    check_string_size(out.size());
  });
  return str_value(std::move(out));
}

Value s_replace(const Call& c) {
  unpack_positional(c, 2, 3);
  const std::string& s = recv_str(c);
  const std::string& old = want_string(c, c.args[0], "1");
  const std::string& neu = want_string(c, c.args[1], "2");
  int64_t max = c.args.size() == 3 ? want_int(c, c.args[2], "3") : -1;
  std::string out;
  int64_t n = 0;
  size_t i = 0;
  if (old.empty()) {
    // Inserts `neu` around every byte, like Go's strings.Replace.
    for (; i <= s.size(); ++i) {
      if (max >= 0 && n >= max) break;
      out += neu;
      ++n;
      if (i < s.size()) out.push_back(s[i]);
      check_string_size(out.size());
    }
    if (i < s.size()) out += s.substr(i);
    return str_value(std::move(out));
  }
  while (max < 0 || n < max) {
    size_t p = s.find(old, i);
    if (p == std::string::npos) break;
    out.append(s, i, p - i);
    out += neu;
    check_string_size(out.size());
    i = p + old.size();
    ++n;
  }
  out.append(s, i, std::string::npos);
  return str_value(std::move(out));
}

// Maps each code point of the receiver; unchanged ones keep their bytes.
template <class F>
Value map_runes(const Call& c, F f) {
  unpack_positional(c, 0, 0);
  const std::string& s = recv_str(c);
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    runes::Rune r = runes::decode(s, i);
    uint32_t m = f(r.cp);
    if (m == r.cp) {
      out.append(s, i, r.width);
    } else {
      append_utf8(out, m);
    }
    i += r.width;
  }
  return str_value(std::move(out));
}

Value s_upper(const Call& c) { return map_runes(c, runes::to_upper); }
Value s_lower(const Call& c) { return map_runes(c, runes::to_lower); }

// Title case after an uncased code point, lower case after a cased one.
Value s_title(const Call& c) {
  bool prev_cased = false;
  return map_runes(c, [&](uint32_t r) {
    r = prev_cased ? runes::to_lower(r) : runes::to_title(r);
    prev_cased = runes::is_cased(r);
    return r;
  });
}

Value s_capitalize(const Call& c) {
  bool first = true;
  return map_runes(c, [&](uint32_t r) {
    r = first ? runes::to_title(r) : runes::to_lower(r);
    first = false;
    return r;
  });
}

// True for a non-empty receiver whose every code point satisfies `f`.
template <class F>
Value all_runes(const Call& c, F f) {
  unpack_positional(c, 0, 0);
  const std::string& s = recv_str(c);
  for (size_t i = 0; i < s.size();) {
    runes::Rune r = runes::decode(s, i);
    if (!f(r.cp)) return Value::from_bool(false);
    i += r.width;
  }
  return Value::from_bool(!s.empty());
}
Value s_isalnum(const Call& c) {
  return all_runes(c, [](uint32_t r) { return runes::is_letter(r) || runes::is_digit(r); });
}
Value s_isalpha(const Call& c) { return all_runes(c, runes::is_letter); }
Value s_isdigit(const Call& c) { return all_runes(c, runes::is_digit); }
Value s_isspace(const Call& c) { return all_runes(c, runes::is_space); }

// Some cased code point, and the receiver equals its upper (lower) case.
Value cased(const Call& c, bool upper) {
  unpack_positional(c, 0, 0);
  const std::string& s = recv_str(c);
  bool any = false;
  for (size_t i = 0; i < s.size();) {
    runes::Rune r = runes::decode(s, i);
    any = any || runes::is_cased(r.cp);
    uint32_t m = upper ? runes::to_upper(r.cp) : runes::to_lower(r.cp);
    if (m != r.cp) return Value::from_bool(false);
    i += r.width;
  }
  return Value::from_bool(any);
}
Value s_islower(const Call& c) { return cased(c, false); }
Value s_isupper(const Call& c) { return cased(c, true); }

// Upper (ASCII) or title case only after uncased code points, lower case only after cased
// ones; any other upper-case letter fails (starlark-go's rule).
Value s_istitle(const Call& c) {
  unpack_positional(c, 0, 0);
  const std::string& s = recv_str(c);
  bool prev_cased = false, any = false;
  for (size_t i = 0; i < s.size();) {
    runes::Rune rr = runes::decode(s, i);
    uint32_t r = rr.cp;
    i += rr.width;
    if ((r >= 'A' && r <= 'Z') || runes::is_title(r)) {
      if (prev_cased) return Value::from_bool(false);
      prev_cased = any = true;
    } else if (runes::is_lower(r)) {
      if (!prev_cased) return Value::from_bool(false);
      prev_cased = any = true;
    } else if (runes::is_upper(r)) {
      return Value::from_bool(false);
    } else {
      prev_cased = false;
    }
  }
  return Value::from_bool(any);
}

Value partition_impl(const Call& c, bool reverse) {
  unpack_positional(c, 1, 1);
  const std::string& s = recv_str(c);
  const std::string& sep = want_string(c, c.args[0], "1");
  if (sep.empty()) bfail(c, "empty separator");
  size_t p = reverse ? s.rfind(sep) : s.find(sep);
  if (p == std::string::npos) {
    Value e = Value::from_string("");
    return reverse ? tuple_value({e, e, *c.receiver}) : tuple_value({*c.receiver, e, e});
  }
  return tuple_value({str_value(s.substr(0, p)), c.args[0], str_value(s.substr(p + sep.size()))});
}
Value s_partition(const Call& c) { return partition_impl(c, false); }
Value s_rpartition(const Call& c) { return partition_impl(c, true); }

Value s_splitlines(const Call& c) {
  Value keepends;
  unpack_args(c, {"keepends?"}, {&keepends});
  bool keep = given(keepends) && truth(keepends);
  const std::string& s = recv_str(c);
  std::vector<Value> out;
  size_t i = 0;
  // Only "\n" ends a line (a "\r" stays in the line), as in ytt's starlark.
  while (i < s.size()) {
    size_t j = s.find('\n', i);
    size_t eol = j == std::string::npos ? s.size() : j;
    size_t next = j == std::string::npos ? s.size() : j + 1;
    out.push_back(str_value(s.substr(i, (keep ? next : eol) - i)));
    i = next;
  }
  return list_value(std::move(out));
}

Value s_format(const Call& c) { return str_value(str_format(recv_str(c), c.args, c.kwargs)); }

Value s_elems(const Call& c) {
  unpack_positional(c, 0, 0);
  std::vector<Value> out;
  for (char ch : recv_str(c)) out.push_back(str_value(std::string(1, ch)));
  return list_value(std::move(out));
}

Value s_elem_ords(const Call& c) {
  unpack_positional(c, 0, 0);
  std::vector<Value> out;
  for (char ch : recv_str(c)) out.push_back(Value::from_int(static_cast<unsigned char>(ch)));
  return list_value(std::move(out));
}

Value s_codepoints(const Call& c) {
  unpack_positional(c, 0, 0);
  const std::string& s = recv_str(c);
  std::vector<Value> out;
  for (size_t i = 0, n = 0; i < s.size(); i += n) {
    decode_utf8(s, i, &n);
    out.push_back(str_value(s.substr(i, n)));
  }
  return list_value(std::move(out));
}

Value s_codepoint_ords(const Call& c) {
  unpack_positional(c, 0, 0);
  const std::string& s = recv_str(c);
  std::vector<Value> out;
  for (size_t i = 0, n = 0; i < s.size(); i += n)
    out.push_back(Value::from_int(decode_utf8(s, i, &n)));
  return list_value(std::move(out));
}

// ---- List methods ----------------------------------------------------------------------------

ListObj* recv_list(const Call& c) { return as_list(*c.receiver); }

void mutate(const Call& c, std::string_view verb) {
  try {
    check_mutable(*c.receiver, verb);
  } catch (EvalError& e) {
    bfail(c, e.message);
  }
}

Value l_append(const Call& c) {
  unpack_positional(c, 1, 1);
  mutate(c, "append to");
  auto& items = recv_list(c)->items;
  items.push_back(c.args[0]);
  if (items.size() > kMaxCollectionLen) check_collection_size(items.size());
  return Value();
}

Value l_clear(const Call& c) {
  unpack_positional(c, 0, 0);
  mutate(c, "clear");
  recv_list(c)->items.clear();
  return Value();
}

Value l_extend(const Call& c) {
  unpack_positional(c, 1, 1);
  mutate(c, "extend");
  const Value& x = c.args[0];
  want_iterable(c, x, "1");
  std::vector<Value> extra = to_vector(x);
  auto& items = recv_list(c)->items;
  check_collection_size(items.size() + extra.size());
  items.insert(items.end(), extra.begin(), extra.end());
  return Value();
}

Value l_index(const Call& c) {
  unpack_positional(c, 1, 3);
  auto& items = recv_list(c)->items;
  size_t lo, hi;
  str_bounds(c, 1, items.size(), &lo, &hi);
  for (size_t i = lo; i < hi; ++i) {
    if (values_equal(items[i], c.args[0])) return Value::from_int(static_cast<int64_t>(i));
  }
  bfail(c, "value not in list");
}

Value l_insert(const Call& c) {
  unpack_positional(c, 2, 2);
  mutate(c, "insert into");
  auto& items = recv_list(c)->items;
  int64_t i = want_int(c, c.args[0], "1");
  int64_t n = static_cast<int64_t>(items.size());
  if (i < 0) i += n;
  i = std::clamp<int64_t>(i, 0, n);
  items.insert(items.begin() + i, c.args[1]);
  check_collection_size(items.size());
  return Value();
}

Value l_pop(const Call& c) {
  unpack_positional(c, 0, 1);
  auto& items = recv_list(c)->items;
  int64_t n = static_cast<int64_t>(items.size());
  int64_t i = c.args.empty() ? -1 : want_int(c, c.args[0], "1");
  int64_t orig = i;
  if (i < 0) i += n;
  if (i < 0 || i >= n) {
    if (n == 0) bfail(c, "index " + std::to_string(orig) + " out of range: empty list");
    bfail(c, "index " + std::to_string(orig) + " out of range [" + std::to_string(-n) + ":" +
                 std::to_string(n - 1) + "]");
  }
  mutate(c, "pop from");
  Value v = items[static_cast<size_t>(i)];
  items.erase(items.begin() + i);
  return v;
}

Value l_remove(const Call& c) {
  unpack_positional(c, 1, 1);
  mutate(c, "remove from");
  auto& items = recv_list(c)->items;
  for (size_t i = 0; i < items.size(); ++i) {
    if (values_equal(items[i], c.args[0])) {
      items.erase(items.begin() + static_cast<long>(i));
      return Value();
    }
  }
  bfail(c, "element not found");
}

// ---- Dict methods ----------------------------------------------------------------------------

HashTable& recv_table(const Call& c) { return as_dict(*c.receiver)->table; }

Value d_clear(const Call& c) {
  unpack_positional(c, 0, 0);
  check_mutable(*c.receiver, "clear");  // ytt reports this one without the "clear: " prefix
  recv_table(c).clear();
  return Value();
}

Value d_get(const Call& c) {
  unpack_positional(c, 1, 2);
  Value* v;
  try {
    v = recv_table(c).find(c.args[0]);
  } catch (EvalError& e) {
    bfail(c, e.message);
  }
  if (v) return *v;
  return c.args.size() == 2 ? c.args[1] : Value();
}

Value d_items(const Call& c) {
  unpack_positional(c, 0, 0);
  std::vector<Value> out;
  for (const auto& e : recv_table(c).entries()) {
    if (e.live) out.push_back(tuple_value({e.key, e.value}));
  }
  return list_value(std::move(out));
}

Value d_keys(const Call& c) {
  unpack_positional(c, 0, 0);
  std::vector<Value> out;
  for (const auto& e : recv_table(c).entries()) {
    if (e.live) out.push_back(e.key);
  }
  return list_value(std::move(out));
}

Value d_values(const Call& c) {
  unpack_positional(c, 0, 0);
  std::vector<Value> out;
  for (const auto& e : recv_table(c).entries()) {
    if (e.live) out.push_back(e.value);
  }
  return list_value(std::move(out));
}

Value d_pop(const Call& c) {
  unpack_positional(c, 1, 2);
  mutate(c, "delete from");
  Value removed;
  bool found;
  try {
    found = recv_table(c).erase(c.args[0], &removed);
  } catch (EvalError& e) {
    bfail(c, e.message);
  }
  if (found) return removed;
  if (c.args.size() == 2) return c.args[1];
  bfail(c, "missing key");
}

Value d_popitem(const Call& c) {
  unpack_positional(c, 0, 0);
  HashTable& t = recv_table(c);
  int i = t.first_live();
  if (i < 0) bfail(c, "empty dict");
  mutate(c, "delete from");
  Value k = t.entries()[static_cast<size_t>(i)].key;
  Value v;
  t.erase(k, &v);
  return tuple_value({k, v});
}

Value d_setdefault(const Call& c) {
  unpack_positional(c, 1, 2);
  HashTable& t = recv_table(c);
  Value* v;
  try {
    v = t.find(c.args[0]);
  } catch (EvalError& e) {
    bfail(c, e.message);
  }
  if (v) return *v;
  mutate(c, "insert into");
  Value d = c.args.size() == 2 ? c.args[1] : Value();
  t.insert(c.args[0], d);
  return d;
}

Value d_update(const Call& c) {
  bool inserts = !c.kwargs.empty() || (!c.args.empty() && length_of(c.args[0]) != 0);
  if (inserts) mutate(c, "insert into");
  try {
    dict_update_from(c, *c.receiver);
  } catch (EvalError& e) {
    if (e.message.rfind("update: ", 0) == 0 || e.kind == ErrorKind::kLimit) throw;
    bfail(c, e.message);
  }
  return Value();
}

// ---- Set methods -----------------------------------------------------------------------------

Value set_union(const Call& c) {
  Value iterable;
  unpack_args(c, {"iterable"}, {&iterable});
  Value s = new_set();
  try {
    for (const auto& e : as_set(*c.receiver)->table.entries()) {
      if (e.live) as_set(s)->table.insert(e.key, Value());
    }
    if (length_of(iterable) < 0 || iterable.kind() == Kind::kString)
      bfail(c, "got " + std::string(iterable.type_name()) + ", want iterable");
    for_each(iterable, [&](const Value& v) { as_set(s)->table.insert(v, Value()); });
  } catch (EvalError& e) {
    if (e.message.rfind("union: ", 0) == 0 || e.kind == ErrorKind::kLimit) throw;
    bfail(c, e.message);
  }
  return s;
}

// ---- Tables ----------------------------------------------------------------------------------

struct Method {
  std::string_view name;
  BuiltinFn fn;
};

constexpr Method kStringMethods[] = {
    {"capitalize", s_capitalize}, {"codepoint_ords", s_codepoint_ords},
    {"codepoints", s_codepoints}, {"count", s_count},
    {"elem_ords", s_elem_ords},   {"elems", s_elems},
    {"endswith", s_endswith},     {"find", s_find},
    {"format", s_format},         {"index", s_index},
    {"isalnum", s_isalnum},       {"isalpha", s_isalpha},
    {"isdigit", s_isdigit},       {"islower", s_islower},
    {"isspace", s_isspace},       {"istitle", s_istitle},
    {"isupper", s_isupper},       {"join", s_join},
    {"lower", s_lower},           {"lstrip", s_lstrip},
    {"partition", s_partition},   {"replace", s_replace},
    {"rfind", s_rfind},           {"rindex", s_rindex},
    {"rpartition", s_rpartition}, {"rsplit", s_rsplit},
    {"rstrip", s_rstrip},         {"split", s_split},
    {"splitlines", s_splitlines}, {"startswith", s_startswith},
    {"strip", s_strip},           {"title", s_title},
    {"upper", s_upper},
};

constexpr Method kListMethods[] = {
    {"append", l_append}, {"clear", l_clear}, {"extend", l_extend}, {"index", l_index},
    {"insert", l_insert}, {"pop", l_pop},     {"remove", l_remove},
};

constexpr Method kDictMethods[] = {
    {"clear", d_clear},
    {"get", d_get},
    {"items", d_items},
    {"keys", d_keys},
    {"pop", d_pop},
    {"popitem", d_popitem},
    {"setdefault", d_setdefault},
    {"update", d_update},
    {"values", d_values},
};

constexpr Method kSetMethods[] = {{"union", set_union}};

std::span<const Method> methods_of(Kind k) {
  switch (k) {
    case Kind::kString:
      return kStringMethods;
    case Kind::kList:
      return kListMethods;
    case Kind::kDict:
      return kDictMethods;
    case Kind::kSet:
      return kSetMethods;
    default:
      return {};
  }
}

}  // namespace

std::optional<Value> builtin_method(const Value& recv, std::string_view name) {
  for (const auto& m : methods_of(recv.kind())) {
    if (m.name == name) return make_bound(m.name, m.fn, recv);
  }
  return std::nullopt;
}

BuiltinFn find_method(Kind k, std::string_view name) {
  for (const auto& m : methods_of(k)) {
    if (m.name == name) return m.fn;
  }
  return nullptr;
}

std::vector<std::string> builtin_method_names(Kind k) {
  std::vector<std::string> out;
  for (const auto& m : methods_of(k)) out.emplace_back(m.name);
  return out;
}

}  // namespace hintkit::starlark

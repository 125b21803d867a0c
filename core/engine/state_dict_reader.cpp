#include "core/engine/state_dict_reader.h"

#include <caffe2/serialize/inline_container.h>

#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>

namespace tw::engine {

namespace {

struct Value;
using ValuePtr = std::shared_ptr<Value>;

// What a pickle of a state_dict holds. Objects of classes we do not know are Opaque: their
// name is kept for messages, nothing of them is ever called.
struct Value {
  enum class Kind { None, Bool, Int, Float, String, Tuple, List, Dict, Global, Storage, Tensor, Opaque, Mark };
  Kind kind = Kind::None;
  int64_t i = 0;
  double f = 0.0;
  std::string s;                                  // String; Global and Opaque: "module.name"
  std::vector<ValuePtr> items;                    // Tuple, List
  std::vector<std::pair<ValuePtr, ValuePtr>> dict;  // Dict, in insertion order
  torch::Tensor tensor;                           // Tensor; Storage: its flat data
};

ValuePtr make(Value::Kind kind) {
  auto v = std::make_shared<Value>();
  v->kind = kind;
  return v;
}

c10::ScalarType storageType(const std::string &name) {
  static const std::map<std::string, c10::ScalarType> types = {
      {"torch.FloatStorage", torch::kFloat32}, {"torch.DoubleStorage", torch::kFloat64},
      {"torch.HalfStorage", torch::kFloat16},  {"torch.BFloat16Storage", torch::kBFloat16},
      {"torch.LongStorage", torch::kInt64},    {"torch.IntStorage", torch::kInt32},
      {"torch.ShortStorage", torch::kInt16},   {"torch.CharStorage", torch::kInt8},
      {"torch.ByteStorage", torch::kUInt8},    {"torch.BoolStorage", torch::kBool}};
  const auto it = types.find(name);
  if (it == types.end()) throw std::runtime_error("a storage of type " + name + ", which is not read");
  return it->second;
}

class PickleReader {
 public:
  PickleReader(const char *data, size_t size, caffe2::serialize::PyTorchStreamReader &zip)
      : m_p(data), m_end(data + size), m_zip(zip) {}

  ValuePtr read() {
    for (;;) {
      const uint8_t op = byte();
      switch (op) {
        case 0x80: byte(); break;         // PROTO
        case 0x95: bytes(8); break;       // FRAME
        case '.': return pop();           // STOP
        case '(': push(make(Value::Kind::Mark)); break;
        case 'N': push(make(Value::Kind::None)); break;
        case 0x88: case 0x89: {           // NEWTRUE, NEWFALSE
          auto v = make(Value::Kind::Bool);
          v->i = op == 0x88;
          push(v);
          break;
        }
        case 'J': pushInt(static_cast<int32_t>(le(4))); break;
        case 'K': pushInt(static_cast<int64_t>(le(1))); break;
        case 'M': pushInt(static_cast<int64_t>(le(2))); break;
        case 0x8a: {                      // LONG1: little-endian two's complement
          const size_t n = byte();
          if (n > 8) fail("an integer wider than 64 bits");
          uint64_t u = le(n);
          if (n && n < 8 && (u >> (8 * n - 1)) & 1) u |= ~uint64_t(0) << (8 * n);
          pushInt(static_cast<int64_t>(u));
          break;
        }
        case 'G': {                       // BINFLOAT, big-endian
          uint64_t u = 0;
          for (int k = 0; k < 8; ++k) u = (u << 8) | byte();
          auto v = make(Value::Kind::Float);
          std::memcpy(&v->f, &u, 8);
          push(v);
          break;
        }
        case 'X': pushString(le(4)); break;      // BINUNICODE
        case 0x8c: pushString(byte()); break;    // SHORT_BINUNICODE
        case 'T': pushString(le(4)); break;      // BINSTRING
        case 'U': pushString(byte()); break;     // SHORT_BINSTRING
        case 'B': pushString(le(4)); break;      // BINBYTES
        case 'C': pushString(byte()); break;     // SHORT_BINBYTES
        case ')': push(make(Value::Kind::Tuple)); break;
        case ']': push(make(Value::Kind::List)); break;
        case '}': push(make(Value::Kind::Dict)); break;
        case 't': {
          auto v = make(Value::Kind::Tuple);
          v->items = popToMark();
          push(v);
          break;
        }
        case 0x85: case 0x86: case 0x87: {  // TUPLE1..3
          auto v = make(Value::Kind::Tuple);
          v->items.resize(op - 0x84);
          for (size_t k = v->items.size(); k-- > 0;) v->items[k] = pop();
          push(v);
          break;
        }
        case 'c': {                        // GLOBAL module\nname\n
          auto v = make(Value::Kind::Global);
          const std::string module = line();  // two statements: the order of reading matters
          v->s = module + "." + line();
          push(v);
          break;
        }
        case 0x93: {                       // STACK_GLOBAL
          auto name = pop(), module = pop();
          auto v = make(Value::Kind::Global);
          v->s = module->s + "." + name->s;
          push(v);
          break;
        }
        case 'R': {                        // REDUCE
          auto args = pop(), callable = pop();
          push(reduce(*callable, *args));
          break;
        }
        case 0x81: {                       // NEWOBJ
          auto args = pop(), cls = pop();
          push(reduce(*cls, *args));
          break;
        }
        case 'b': pop(); break;            // BUILD: an OrderedDict's _metadata and the like; not needed
        case 's': {
          auto value = pop(), key = pop();
          top(Value::Kind::Dict).dict.emplace_back(key, value);
          break;
        }
        case 'u': {
          auto items = popToMark();
          Value &d = top(Value::Kind::Dict);
          for (size_t k = 0; k + 1 < items.size(); k += 2) d.dict.emplace_back(items[k], items[k + 1]);
          break;
        }
        case 'a': {
          auto value = pop();
          top(Value::Kind::List).items.push_back(value);
          break;
        }
        case 'e': {
          auto items = popToMark();
          Value &l = top(Value::Kind::List);
          l.items.insert(l.items.end(), items.begin(), items.end());
          break;
        }
        case 'q': m_memo[le(1)] = peek(); break;   // BINPUT
        case 'r': m_memo[le(4)] = peek(); break;   // LONG_BINPUT
        case 0x94: m_memo[m_memo.size()] = peek(); break;  // MEMOIZE
        case 'h': push(memo(le(1))); break;        // BINGET
        case 'j': push(memo(le(4))); break;        // LONG_BINGET
        case 'Q': push(persistent(*pop())); break; // BINPERSID
        default: fail("pickle opcode 0x" + hex(op) + ", which torch.save does not write for a state_dict");
      }
    }
  }

 private:
  [[noreturn]] void fail(const std::string &what) { throw std::runtime_error("data.pkl holds " + what); }

  uint8_t byte() {
    if (m_p >= m_end) throw std::runtime_error("data.pkl ends early (truncated)");
    return static_cast<uint8_t>(*m_p++);
  }
  std::string bytes(size_t n) {
    if (static_cast<size_t>(m_end - m_p) < n) throw std::runtime_error("data.pkl ends early (truncated)");
    std::string out(m_p, n);
    m_p += n;
    return out;
  }
  uint64_t le(size_t n) {
    uint64_t u = 0;
    for (size_t k = 0; k < n; ++k) u |= uint64_t(byte()) << (8 * k);
    return u;
  }
  std::string line() {
    std::string out;
    for (char c = static_cast<char>(byte()); c != '\n'; c = static_cast<char>(byte())) out += c;
    return out;
  }
  static std::string hex(uint8_t op) {
    const char *digits = "0123456789abcdef";
    return {digits[op >> 4], digits[op & 15]};
  }

  void push(ValuePtr v) { m_stack.push_back(std::move(v)); }
  void pushInt(int64_t i) {
    auto v = make(Value::Kind::Int);
    v->i = i;
    push(v);
  }
  void pushString(size_t n) {
    auto v = make(Value::Kind::String);
    v->s = bytes(n);
    push(v);
  }
  ValuePtr pop() {
    if (m_stack.empty()) fail("a malformed pickle (an empty stack)");
    ValuePtr v = m_stack.back();
    m_stack.pop_back();
    return v;
  }
  ValuePtr peek() {
    if (m_stack.empty()) fail("a malformed pickle (an empty stack)");
    return m_stack.back();
  }
  Value &top(Value::Kind kind) {
    Value &v = *peek();
    if (v.kind != kind) fail("a malformed pickle (an item added to something that cannot hold it)");
    return v;
  }
  std::vector<ValuePtr> popToMark() {
    std::vector<ValuePtr> items;
    for (;;) {
      ValuePtr v = pop();
      if (v->kind == Value::Kind::Mark) break;
      items.push_back(std::move(v));
    }
    return {items.rbegin(), items.rend()};
  }
  ValuePtr memo(uint64_t key) {
    const auto it = m_memo.find(key);
    if (it == m_memo.end()) fail("a malformed pickle (a reference to nothing)");
    return it->second;
  }

  // ('storage', storage type, key, location, numel): the tensor record data/<key>.
  ValuePtr persistent(const Value &pid) {
    if (pid.kind != Value::Kind::Tuple || pid.items.size() < 5 || pid.items[0]->s != "storage")
      fail("a persistent reference other than a tensor storage");
    const c10::ScalarType type = storageType(pid.items[1]->s);
    const std::string key = pid.items[2]->s;
    auto cached = m_storages.find(key);
    if (cached != m_storages.end()) return cached->second;
    const std::string record = "data/" + key;
    if (!m_zip.hasRecord(record)) fail("a tensor whose record " + record + " is missing");
    auto [data, size] = m_zip.getRecord(record);
    const int64_t numel = pid.items[4]->i;
    const size_t itemSize = c10::elementSize(type);
    if (numel < 0 || size < static_cast<size_t>(numel) * itemSize)
      fail("a tensor record " + record + " shorter than its " + std::to_string(numel) + " elements");
    auto v = make(Value::Kind::Storage);
    v->tensor = torch::empty({numel}, torch::TensorOptions().dtype(type));
    std::memcpy(v->tensor.data_ptr(), data.get(), static_cast<size_t>(numel) * itemSize);
    m_storages[key] = v;
    return v;
  }

  static std::vector<int64_t> ints(const Value &tuple) {
    std::vector<int64_t> out;
    for (const ValuePtr &item : tuple.items) out.push_back(item->i);
    return out;
  }

  ValuePtr reduce(const Value &callable, const Value &args) {
    const std::string &name = callable.s;
    if (callable.kind == Value::Kind::Global && name == "collections.OrderedDict") return make(Value::Kind::Dict);
    if (callable.kind == Value::Kind::Global && name == "torch._utils._rebuild_tensor_v2") {
      if (args.items.size() < 4 || args.items[0]->kind != Value::Kind::Storage) fail("a malformed tensor");
      const torch::Tensor &storage = args.items[0]->tensor;
      const int64_t offset = args.items[1]->i;
      const std::vector<int64_t> size = ints(*args.items[2]), stride = ints(*args.items[3]);
      int64_t last = offset;  // the furthest element the view reads must lie in the storage
      for (size_t d = 0; d < size.size() && d < stride.size(); ++d)
        if (size[d] > 0) last += (size[d] - 1) * stride[d];
      const bool empty = std::find(size.begin(), size.end(), int64_t(0)) != size.end();
      if (size.size() != stride.size() || offset < 0 || (!empty && last >= storage.numel()))
        fail("a tensor that reaches past its storage");
      auto v = make(Value::Kind::Tensor);
      v->tensor = storage.as_strided(size, stride, offset).clone();
      return v;
    }
    if (callable.kind == Value::Kind::Global &&
        (name == "torch._utils._rebuild_parameter" || name == "torch._utils._rebuild_parameter_with_state") &&
        !args.items.empty() && args.items[0]->kind == Value::Kind::Tensor)
      return args.items[0];
    auto v = make(Value::Kind::Opaque);
    v->s = name;
    return v;
  }

  const char *m_p;
  const char *m_end;
  caffe2::serialize::PyTorchStreamReader &m_zip;
  std::vector<ValuePtr> m_stack;
  std::map<uint64_t, ValuePtr> m_memo;
  std::map<std::string, ValuePtr> m_storages;
};

void collect(const Value &dict, std::vector<std::pair<std::string, torch::Tensor>> &out) {
  for (const char *wrapper : {"state_dict", "model"})
    for (const auto &[key, value] : dict.dict)
      if (key->kind == Value::Kind::String && key->s == wrapper && value->kind == Value::Kind::Dict) {
        bool tensors = false;
        for (const auto &entry : dict.dict) tensors = tensors || entry.second->kind == Value::Kind::Tensor;
        if (!tensors) return collect(*value, out);
      }
  for (const auto &[key, value] : dict.dict)
    if (key->kind == Value::Kind::String && value->kind == Value::Kind::Tensor) out.emplace_back(key->s, value->tensor);
}

}  // namespace

std::vector<std::pair<std::string, torch::Tensor>> readStateDict(const std::string &path) {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  try {
    caffe2::serialize::PyTorchStreamReader zip(path);
    if (!zip.hasRecord("data.pkl"))
      throw std::runtime_error("has no data.pkl: not a file written by torch.save");
    auto [data, size] = zip.getRecord("data.pkl");
    PickleReader reader(static_cast<const char *>(data.get()), size, zip);
    const ValuePtr root = reader.read();
    if (root->kind != Value::Kind::Dict)
      throw std::runtime_error("holds " + (root->kind == Value::Kind::Opaque ? "a " + root->s : std::string("no dictionary")) +
                               ", not a state_dict (a dictionary of names to tensors)");
    collect(*root, out);
  } catch (const c10::Error &e) {
    throw std::runtime_error("weights file " + path + ": not a torch.save file of PyTorch 1.6 or later (" +
                             e.what_without_backtrace() + ")");
  } catch (const std::runtime_error &e) {
    throw std::runtime_error("weights file " + path + ": " + e.what());
  }
  return out;
}

}  // namespace tw::engine

// MPI operators as ccl reduction kernels.
#include "reduction_kernel.hpp"

#include <complex>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "datatype_layout.hpp"
#include "type_hold.hpp"

namespace ccl::drop_in {

namespace {

// What MPI defines each built-in operator on (MPI 4.0, section 6.9.2).
enum class Family { integer, floating, complex, logical, byte, pair };

template <class T, Family F>
std::optional<ReduceKernel> builtin(MPI_Op op) {
  constexpr bool arithmetic = F == Family::integer || F == Family::floating;
  constexpr bool logical = F == Family::integer || F == Family::logical;
  constexpr bool bitwise = F == Family::integer || F == Family::byte;
  if constexpr (arithmetic || F == Family::complex) {
    if (op == MPI_SUM) return make_kernel<T>(ccl::sum);
    if (op == MPI_PROD) return make_kernel<T>(ccl::prod);
  }
  if constexpr (arithmetic) {
    if (op == MPI_MIN) return make_kernel<T>(ccl::min);
    if (op == MPI_MAX) return make_kernel<T>(ccl::max);
  }
  if constexpr (logical) {
    if (op == MPI_LAND) return make_kernel<T>(ccl::land);
    if (op == MPI_LOR) return make_kernel<T>(ccl::lor);
    if (op == MPI_LXOR) {
      ReduceKernel k = make_kernel<T>(
          ccl::commutative([](T a, T b) { return static_cast<T>((a != T{}) != (b != T{})); }));
      k.name = "lxor";
      return k;
    }
  }
  if constexpr (bitwise) {
    if (op == MPI_BAND) return make_kernel<T>(ccl::band);
    if (op == MPI_BOR) return make_kernel<T>(ccl::bor);
    if (op == MPI_BXOR) {
      ReduceKernel k =
          make_kernel<T>(ccl::commutative([](T a, T b) { return static_cast<T>(a ^ b); }));
      k.name = "bxor";
      return k;
    }
  }
  if constexpr (F == Family::pair) {
    if (op == MPI_MINLOC) return make_kernel<T>(ccl::minloc);
    if (op == MPI_MAXLOC) return make_kernel<T>(ccl::maxloc);
  }
  return std::nullopt;
}

struct BasicType {
  MPI_Datatype type;
  std::size_t bytes;  // sizeof the C type: must be the MPI type's extent
  std::optional<ReduceKernel> (*kernel)(MPI_Op);
};

template <class T, Family F>
BasicType basic(MPI_Datatype t) {
  return BasicType{t, sizeof(T), &builtin<T, F>};
}

const std::vector<BasicType>& basic_types() {
  using F = Family;
  static const std::vector<BasicType> table = {
      basic<signed char, F::integer>(MPI_SIGNED_CHAR),
      basic<unsigned char, F::integer>(MPI_UNSIGNED_CHAR),
      basic<short, F::integer>(MPI_SHORT),
      basic<unsigned short, F::integer>(MPI_UNSIGNED_SHORT),
      basic<int, F::integer>(MPI_INT),
      basic<unsigned, F::integer>(MPI_UNSIGNED),
      basic<long, F::integer>(MPI_LONG),
      basic<unsigned long, F::integer>(MPI_UNSIGNED_LONG),
      basic<long long, F::integer>(MPI_LONG_LONG_INT),
      basic<long long, F::integer>(MPI_LONG_LONG),
      basic<unsigned long long, F::integer>(MPI_UNSIGNED_LONG_LONG),
      basic<std::int8_t, F::integer>(MPI_INT8_T),
      basic<std::int16_t, F::integer>(MPI_INT16_T),
      basic<std::int32_t, F::integer>(MPI_INT32_T),
      basic<std::int64_t, F::integer>(MPI_INT64_T),
      basic<std::uint8_t, F::integer>(MPI_UINT8_T),
      basic<std::uint16_t, F::integer>(MPI_UINT16_T),
      basic<std::uint32_t, F::integer>(MPI_UINT32_T),
      basic<std::uint64_t, F::integer>(MPI_UINT64_T),
      basic<MPI_Aint, F::integer>(MPI_AINT),
      basic<MPI_Offset, F::integer>(MPI_OFFSET),
      basic<MPI_Count, F::integer>(MPI_COUNT),
      basic<float, F::floating>(MPI_FLOAT),
      basic<double, F::floating>(MPI_DOUBLE),
      basic<long double, F::floating>(MPI_LONG_DOUBLE),
      basic<std::complex<float>, F::complex>(MPI_C_FLOAT_COMPLEX),
      basic<std::complex<double>, F::complex>(MPI_C_DOUBLE_COMPLEX),
      basic<std::complex<long double>, F::complex>(MPI_C_LONG_DOUBLE_COMPLEX),
      basic<std::complex<float>, F::complex>(MPI_CXX_FLOAT_COMPLEX),
      basic<std::complex<double>, F::complex>(MPI_CXX_DOUBLE_COMPLEX),
      basic<std::complex<long double>, F::complex>(MPI_CXX_LONG_DOUBLE_COMPLEX),
      basic<bool, F::logical>(MPI_C_BOOL),
      basic<bool, F::logical>(MPI_CXX_BOOL),
      basic<unsigned char, F::byte>(MPI_BYTE),
      basic<ValueIndex<float>, F::pair>(MPI_FLOAT_INT),
      basic<ValueIndex<double>, F::pair>(MPI_DOUBLE_INT),
      basic<ValueIndex<long>, F::pair>(MPI_LONG_INT),
      basic<ValueIndex<int>, F::pair>(MPI_2INT),
      basic<ValueIndex<short>, F::pair>(MPI_SHORT_INT),
      basic<ValueIndex<long double>, F::pair>(MPI_LONG_DOUBLE_INT),
  };
  return table;
}

bool is_builtin_op(MPI_Op op) {
  for (MPI_Op b : {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND,
                   MPI_BOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC}) {
    if (op == b) return true;
  }
  return false;
}

// An MPI_Op_create operator: the user function computes inout[i] = in[i] op inout[i], with `in`
// from the lower ranks; the kernel computes out = left op right.
struct UserOp {
  MPI_User_function* fn = nullptr;
  bool commutative = false;
};
// Holds its datatype while it lives (type_hold.hpp): a request in flight keeps the kernel.
struct UserCall {
  UserCall(MPI_User_function* f, MPI_Datatype t, std::size_t b) : fn(f), type(t), bytes(b) {
    hold_type(type);
  }
  ~UserCall() { release_type(type); }
  UserCall(const UserCall&) = delete;
  UserCall& operator=(const UserCall&) = delete;

  MPI_User_function* fn;
  MPI_Datatype type;
  std::size_t bytes;  // of one element
};

std::map<MPI_Op, UserOp>& user_ops() {
  static std::map<MPI_Op, UserOp> ops;
  return ops;
}

void apply_user(const void* state, const std::byte* left, const std::byte* right, std::byte* out,
                std::size_t n) {
  const auto& u = *static_cast<const UserCall*>(state);
  if (n == 0) return;
  static thread_local std::vector<std::byte> scratch;
  std::byte* inout = out;
  if (out == left && left != right) {  // the function overwrites its second operand only
    scratch.assign(right, right + n * u.bytes);
    inout = scratch.data();
  } else if (out != right) {
    std::memmove(out, right, n * u.bytes);
  }
  MPI_Datatype type = u.type;
  constexpr std::size_t kChunk = 1 << 30;  // the function takes an int count
  for (std::size_t done = 0; done < n; done += kChunk) {
    int len = static_cast<int>(std::min(kChunk, n - done));
    u.fn(const_cast<std::byte*>(left + done * u.bytes), inout + done * u.bytes, &len, &type);
  }
  if (inout != out) std::memcpy(out, inout, n * u.bytes);
}

ReduceKernel user_kernel(const UserOp& op, MPI_Datatype type, std::size_t bytes) {
  ReduceKernel k;
  k.fn = &apply_user;
  k.op = std::make_shared<const UserCall>(op.fn, type, bytes);
  k.id = detail::fingerprint(op.commutative ? "MPI_Op_create commutative" : "MPI_Op_create");
  k.name = op.commutative ? "MPI user op (commutative)" : "MPI user op";
  k.commutative = op.commutative;
  return k;
}

KernelChoice choose_kernel(MPI_Op op, MPI_Datatype type) {
  const Layout& l = layout_of(type);
  if (auto it = user_ops().find(op); it != user_ops().end()) {
    if (!l.packed) return {std::nullopt, "user operator on a datatype with gaps"};
    return {ReductionPlan{user_kernel(it->second, type, l.size), l.size, true}, {}};
  }
  if (!is_builtin_op(op)) return {std::nullopt, "operator MPI_REPLACE, MPI_NO_OP or unknown"};
  if (l.basic == MPI_DATATYPE_NULL)
    return {std::nullopt, "built-in operator on a datatype of mixed types"};
  if (!l.basic_strided) return {std::nullopt, "built-in operator on a datatype with gaps"};
  for (const BasicType& b : basic_types()) {
    if (b.type != l.basic) continue;
    MPI_Aint lb = 0, extent = 0;
    PMPI_Type_get_extent(b.type, &lb, &extent);
    if (static_cast<std::size_t>(extent) != b.bytes) break;
    if (auto k = b.kernel(op)) return {ReductionPlan{std::move(*k), b.bytes, false}, {}};
    return {std::nullopt, "operator not defined on the datatype"};
  }
  return {std::nullopt, "operator not defined on the datatype"};
}

// Choices made, by operator and datatype: finding one walks the type table and, for a user
// operator, allocates; a small reduction would pay that on every call.
std::map<std::pair<MPI_Op, MPI_Datatype>, KernelChoice>& chosen() {
  static std::map<std::pair<MPI_Op, MPI_Datatype>, KernelChoice> c;
  return c;
}

// The last choice found: a loop reduces with one operator and datatype (a map node: stable).
MPI_Op last_op = MPI_OP_NULL;
MPI_Datatype last_type = MPI_DATATYPE_NULL;
const KernelChoice* last_choice = nullptr;

}  // namespace

const KernelChoice& kernel_for(MPI_Op op, MPI_Datatype type) {
  if (last_choice != nullptr && op == last_op && type == last_type) return *last_choice;
  auto& c = chosen();
  auto it = c.find({op, type});
  if (it == c.end()) it = c.emplace(std::pair{op, type}, choose_kernel(op, type)).first;
  last_op = op;
  last_type = type;
  last_choice = &it->second;
  return it->second;
}

void remember_user_op(MPI_Op op, MPI_User_function* fn, bool commutative) {
  user_ops()[op] = UserOp{fn, commutative};
  forget_kernels(op, MPI_DATATYPE_NULL);
}
void forget_user_op(MPI_Op op) {
  user_ops().erase(op);
  forget_kernels(op, MPI_DATATYPE_NULL);
}

void forget_kernels(MPI_Op op, MPI_Datatype type) {
  last_choice = nullptr;
  std::erase_if(chosen(), [&](const auto& entry) {
    return entry.first.first == op || entry.first.second == type;
  });
}

}  // namespace ccl::drop_in

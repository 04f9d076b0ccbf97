// Persistent calls: checked and shaped once at binding, launched at each start.
#include "ccl/persistent.hpp"

#include <algorithm>
#include <utility>

#include "calls/start.hpp"
#include "ccl/error.hpp"
#include "ccl/mode.hpp"
#include "execution/operation.hpp"
#include "groups/group_state.hpp"
#include "groups/process.hpp"

namespace ccl {

namespace detail {

// The operation a bound call keeps for all its rounds: the pool's, retained, returned when the
// binding goes.
struct KeptOperation {
  Operation* op = nullptr;
  KeptOperation() = default;
  KeptOperation(const KeptOperation&) = delete;
  KeptOperation& operator=(const KeptOperation&) = delete;
  ~KeptOperation() {
    if (op != nullptr) op->release();
  }
};

struct Bound {
  Group group;
  KeptOperation kept;  // holds the call; its rounds (in run mode) run on it
  Shape shape;
  std::vector<int> torus;      // the group's layout when the shape was fixed
  std::uint64_t instance = 0;  // of every round: kPersistentInstance and the binding's number
  Request round;               // destroyed first: waits for an active round
  bool active = false;

  const Call& call() { return kept.op->call(); }
  // The shape fixed at binding, or again when the program has since switched barrier mode or
  // laid the group out as a torus (both change the schedule members agree on).
  const Shape& current_shape() {
    const std::vector<int>& now = group.state().torus;
    if (shape.barrier != barrier_mode() || !std::ranges::equal(torus, now)) {
      shape = checked_shape(group, call());
      torus = now;
    }
    return shape;
  }
};

Persistent bind(const Group& g, Call call) {
  if (call.kind == CollKind::sync) call.root = -1;  // rounds start in any order: no hub
  auto bound = std::make_unique<Bound>();
  bound->group = g;
  bound->shape = checked_shape(g, call);
  bound->torus = g.state().torus;
  bound->instance = persistent_instance(g.state().persistent_bound++);
  Operation* op = g.state().process->acquire();
  op->retain();
  bound->kept.op = op;
  const CollKind kind = call.kind;
  op->begin(kind, g.shared_state(), std::move(call), 0);
  return Persistent(std::move(bound));
}

}  // namespace detail

Persistent::Persistent() = default;
Persistent::Persistent(std::unique_ptr<detail::Bound> bound) : bound_(std::move(bound)) {}
Persistent::Persistent(Persistent&&) noexcept = default;
Persistent& Persistent::operator=(Persistent&&) noexcept = default;
Persistent::~Persistent() = default;  // the round's Request waits for it

bool Persistent::active() const {
  return bound_ != nullptr && bound_->active;
}

void Persistent::start() {
  if (bound_ == nullptr) throw Error("ccl: start of an empty Persistent");
  detail::Bound& b = *bound_;
  if (b.active) {
    throw Error("ccl: start of a persistent " + std::string(name(b.call().kind)) + " on group '" +
                b.group.label() + "' whose last round is still active (test or wait first)");
  }
  // Develop mode checks each round across members as a new call; run mode reuses the operation.
  b.round = mode() == Mode::develop
                ? detail::start_checked(b.group, b.call(), b.current_shape(), b.instance)
                : detail::start_round(*b.kept.op, b.current_shape(), b.instance);
  b.active = true;
}

bool Persistent::test() {
  if (!active()) return true;
  detail::Bound& b = *bound_;
  try {
    if (!b.round.test()) return false;
  } catch (...) {
    b.active = false;  // the failed round is over: the error goes to this caller
    throw;
  }
  b.active = false;
  return true;
}

void Persistent::wait() {
  if (!active()) return;
  bound_->active = false;
  bound_->round.wait();
}

void start_all(std::span<Persistent> calls) {
  for (Persistent& p : calls) p.start();
}

}  // namespace ccl

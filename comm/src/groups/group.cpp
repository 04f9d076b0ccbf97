// Group accessors, PGID text, the schedule cache, operator fingerprints and the process mode.
#include "ccl/group.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "ccl/error.hpp"
#include "ccl/mode.hpp"
#include "ccl/reduce_op.hpp"
#include "ccl/selection.hpp"
#include "groups/group_state.hpp"

namespace ccl {

void Group::empty_handle() {
  throw Error("ccl: use of an empty Group handle");
}
int Group::size() const {
  return static_cast<int>(state().members.size());
}
int Group::rank() const {
  return state().rank;
}
std::span<const int> Group::members() const {
  return state().members;
}
int Group::world_rank_of(int member) const {
  if (member < 0 || member >= size()) {
    throw Error("ccl: group '" + label() + "' has no member " + std::to_string(member));
  }
  return state().members[static_cast<std::size_t>(member)];
}
int Group::rank_of_world(int world_rank) const {
  const auto& m = state().members;
  auto it = std::find(m.begin(), m.end(), world_rank);
  return it == m.end() ? -1 : static_cast<int>(it - m.begin());
}
const std::string& Group::label() const {
  return state().label;
}
const Pgid& Group::pgid() const {
  return state().pgid;
}
std::span<const int> Group::torus() const {
  return state().torus;
}

void Group::set_torus(std::vector<int> dims) const {
  long long product = 1;
  for (int d : dims) {
    if (d < 1)
      throw Error("ccl: a torus dimension of " + std::to_string(d) + " for group '" + label() +
                  "'");
    product *= d;
  }
  if (dims.empty() || product != size()) {
    throw Error("ccl: a torus of " + std::to_string(product) + " members for group '" + label() +
                "' of " + std::to_string(size()));
  }
  state().torus = std::move(dims);
  note_catalog_change();  // schedules chosen without the layout are stale
}

std::string Pgid::str() const {
  std::string s = std::to_string(leader) + "." + std::to_string(serial);
  if (list_hash != 0) s += "/explicit";
  return s;
}

namespace detail {

std::uint64_t fingerprint(std::string_view text) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

const std::shared_ptr<const Schedule>& ScheduleCache::get(const Shape& shape, Statistics& stats,
                                                          const Choice* fixed) {
  if (epoch_ != selection_epoch()) {  // the model or an override changed: choose afresh
    map_.clear();
    last_ = map_.end();
    epoch_ = selection_epoch();
  }
  if (last_ != map_.end() && last_->first == shape) return last_->second;
  last_ = map_.find(shape);
  if (last_ != map_.end()) return last_->second;
  if (map_.size() >= kCapacity) map_.clear();
  auto s = std::make_shared<const Schedule>(fixed != nullptr ? build_schedule(shape, *fixed)
                                                             : build_schedule(shape));
  stats.schedules_built += 1;
  last_ = map_.emplace(shape, std::move(s)).first;
  return last_->second;
}

}  // namespace detail

namespace {
Mode initial_mode() {
  const char* e = std::getenv("CCL_MODE");
  if (e == nullptr || std::string(e) == "run" || std::string(e).empty()) return Mode::run;
  if (std::string(e) == "develop") return Mode::develop;
  throw Error("ccl: CCL_MODE must be 'develop' or 'run', not '" + std::string(e) + "'");
}
// Read on every call: a plain flag test, not a guarded static (initial_mode may throw, so it
// runs on first use rather than at load time).
Mode current_mode = Mode::run;
bool mode_known = false;

[[gnu::noinline]] Mode first_mode() {
  current_mode = initial_mode();
  mode_known = true;
  return current_mode;
}
}  // namespace

Mode mode() {
  if (!mode_known) [[unlikely]]
    return first_mode();
  return current_mode;
}
void set_mode(Mode m) {
  current_mode = m;
  mode_known = true;
  note_catalog_change();  // barrier mode may follow the mode (barrier_mode())
}

namespace {
// -1 while neither CCL_BARRIER nor set_barrier_mode decided: then the mode decides.
int barrier_setting = [] {
  const char* e = std::getenv("CCL_BARRIER");
  if (e == nullptr || *e == '\0') return -1;
  if (std::string(e) == "1") return 1;
  if (std::string(e) == "0") return 0;
  return -2;  // refused when first asked (an exception cannot leave a static initialiser)
}();
}  // namespace

bool barrier_mode() {
  if (barrier_setting == -2)
    throw Error("ccl: CCL_BARRIER must be 1 or 0, not '" + std::string(std::getenv("CCL_BARRIER")) +
                "'");
  return barrier_setting < 0 ? mode() == Mode::develop : barrier_setting == 1;
}
void set_barrier_mode(bool on) {
  barrier_setting = on ? 1 : 0;
  note_catalog_change();  // schedules cached without (or with) the barrier are chosen afresh
}

}  // namespace ccl

// ccl: process groups and the CCL collectives over MPI or the in-process simulator.
#pragma once

#include "ccl/algorithm.hpp"
#include "ccl/collectives.hpp"
#include "ccl/environment.hpp"
#include "ccl/error.hpp"
#include "ccl/group.hpp"
#include "ccl/mode.hpp"
#include "ccl/persistent.hpp"
#include "ccl/pgid.hpp"
#include "ccl/reduce_op.hpp"
#include "ccl/report.hpp"
#include "ccl/request.hpp"
#include "ccl/schedule.hpp"
#include "ccl/shape.hpp"
#include "ccl/sim.hpp"
#include "ccl/stats.hpp"

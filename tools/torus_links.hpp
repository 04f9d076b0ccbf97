// The torus links of a job laid out as a torus (CCL_TORUS, or the platform under SMPI), measured
// for the machine model's "torus" line (TorusLinkModel): from member 0 of the torus, by MPI
// point-to-point with one neighbour at a time, the others idle:
//   alpha + hop   half a round trip of 8 B to a neighbour (one link), minus 8·beta;
//   hop           the same to a member two links away, minus one link's (0 when no member is);
//   beta          the slope of that round trip between 64 KiB and 1 MiB;
//   ports         how many neighbours member 0 can send 1 MiB to at once, each in at most 1.5
//                 times the time of one alone (links a node drives together).
#pragma once

#include "ccl/group.hpp"
#include "ccl/selection.hpp"

// Every member calls it; the result is member 0's measurement, on every member.
ccl::TorusLinkModel measure_torus_links(const ccl::Group& world, bool quick);

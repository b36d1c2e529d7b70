#!/usr/bin/env node
// Nothing to copy yet beyond what packages reference in place (libs/proto/proto
// is read from the source tree); kept as the build's asset step.

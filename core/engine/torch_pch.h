// Precompiled header for tw_engine only (see core/CMakeLists.txt); never include it elsewhere.
#pragma once
#include <torch/torch.h>

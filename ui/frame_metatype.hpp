#pragma once
// Lets tendril::FramePtr travel through queued signals. Declared here, never in core/.

#include <QMetaType>

#include "core/sim/frame.hpp"

Q_DECLARE_METATYPE(tendril::FramePtr)

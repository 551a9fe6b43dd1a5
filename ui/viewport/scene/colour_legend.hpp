#pragma once
// The colour maps of the rods (RobotScene::setRodColouring) and their legend: the lookup tables
// are made once and shared by every rod's mapper and by the scalar bar. VTK only, no Qt.

#include <vtkLookupTable.h>
#include <vtkScalarBarActor.h>
#include <vtkSmartPointer.h>

namespace tendril {

/// \brief Blue (zero) to red (the top), for a quantity that is never negative.
vtkSmartPointer<vtkLookupTable> makeSequentialTable();

/// \brief Blue (negative) through white (zero) to red (positive), for a signed quantity whose
///        range is centred on zero.
vtkSmartPointer<vtkLookupTable> makeDivergingTable();

/// \brief A vertical scalar bar at the right of the view, hidden; the scene sets its table and
///        title.
vtkSmartPointer<vtkScalarBarActor> makeLegend();

}  // namespace tendril

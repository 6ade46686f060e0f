// SPDX-License-Identifier: MIT
#include "ui/controller/model_settings.h"

namespace sosrep::ui {

bool ModelSettings::operator==(const ModelSettings& o) const
{
    return estimator == o.estimator && kernel == o.kernel && lengthScale == o.lengthScale &&
           autoLengthScale == o.autoLengthScale && selection == o.selection &&
           sdoOrder == o.sdoOrder && features == o.features && sdoMethod == o.sdoMethod &&
           solver == o.solver && learningRate == o.learningRate && iterations == o.iterations &&
           seed == o.seed && scaling == o.scaling && maxFitRows == o.maxFitRows;
}

} // namespace sosrep::ui

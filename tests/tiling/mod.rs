//! CuTe's tensor algebra on tensors (`Tensor::compose`, the divides, the partitions) and the
//! layouts for threads (`Layout::tv`, `with_shape`, `flat_coordinate`): values and
//! gradients through every view, CuTe's tutorial partitions, refusals, random inputs.

mod partitions;
mod reference;

//! The functions a model needs beyond arithmetic, one module per group: values against
//! hand-computed expectations and naive references on compact, transposed, sliced,
//! reversed and broadcast inputs; every error with its message and untouched carriers;
//! gradients against finite differences.

mod gather;

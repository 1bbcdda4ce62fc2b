//! Laws of the algebra as property tests over random small layouts.

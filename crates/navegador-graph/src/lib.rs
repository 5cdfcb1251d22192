//! navegador-graph

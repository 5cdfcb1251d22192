//! navegador-index

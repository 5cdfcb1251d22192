//! navegador-model

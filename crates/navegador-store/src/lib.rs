//! navegador-store

//! navegador-lang

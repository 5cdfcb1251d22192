//! navegador-cypher

{-# LANGUAGE CPP #-}
module Gen (chooseInteger, chooseWord64) where

-- | Both branches are read: chooseInteger has two equations, chooseWord64 is found.
chooseInteger :: (Integer, Integer) -> Gen Integer
#ifdef NO_SPLITMIX
chooseInteger = choose
#else
chooseInteger (lo, hi)
  | lo <= hi = fromWord (chooseWord64 (fromInteger lo, fromInteger hi))
  | otherwise = chooseInteger (hi, lo)

-- | Defined in the #else branch: read too (the grammar alone would lose it).
chooseWord64 :: (Word64, Word64) -> Gen Word64
chooseWord64 (lo, hi) = fmap (+ lo) (chooseUpTo (hi - lo))
#endif

#if MIN_VERSION_base(4,9,0)
#if defined(NESTED)
nested = 1
#endif
#elif OTHER
other = 2
#else
other = 3
#endif

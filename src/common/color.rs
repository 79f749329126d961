//! The two-player colour type, written once: `two_player_color!`
//! defines a game's own enum (its own variant names: Red/Black, White/Black) with the same
//! helpers everywhere.
//!
//! A macro rather than a generic type: each game keeps a plain `#[repr(u8)]` enum it can
//! `match` on by name, and every helper is a `const fn` that inlines to nothing.

/// Defines a two-player colour enum: `two_player_color!(Color: Red "Red", Black "Black")`
/// gives `enum Color { Red = 0, Black = 1 }` with `ALL`, `flip`, `index`, `from_index`
/// and `name`. The first variant moves first and has index 0.
macro_rules! two_player_color {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(#[$first_meta:meta])* $first:ident = $first_name:literal,
            $(#[$second_meta:meta])* $second:ident = $second_name:literal $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
        #[repr(u8)]
        $vis enum $name {
            $(#[$first_meta])*
            $first = 0,
            $(#[$second_meta])*
            $second = 1,
        }

        impl $name {
            /// Both sides, in turn order.
            pub const ALL: [$name; 2] = [$name::$first, $name::$second];

            /// The other side.
            #[inline(always)]
            pub const fn flip(self) -> $name {
                match self {
                    $name::$first => $name::$second,
                    $name::$second => $name::$first,
                }
            }

            /// 0 for the first player, 1 for the second: for indexing tables.
            #[inline(always)]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The side of an index: 0 is the first player, anything else the second.
            #[inline(always)]
            pub const fn from_index(i: usize) -> $name {
                if i == 0 {
                    $name::$first
                } else {
                    $name::$second
                }
            }

            /// The side's name, capitalised.
            pub const fn name(self) -> &'static str {
                match self {
                    $name::$first => $first_name,
                    $name::$second => $second_name,
                }
            }
        }
    };
}

// The games name it by its path (`crate::common::two_player_color!`), not from the crate
// root where `#[macro_export]` would put it.
pub(crate) use two_player_color;

#[cfg(test)]
mod tests {
    crate::common::two_player_color! {
        /// A test colour.
        enum Side {
            /// First.
            Light = "Light",
            /// Second.
            Dark = "Dark",
        }
    }

    #[test]
    fn helpers() {
        assert_eq!(Side::Light.flip(), Side::Dark);
        assert_eq!(Side::Dark.flip().index(), 0);
        assert_eq!(Side::from_index(1), Side::Dark);
        assert_eq!(Side::ALL.map(Side::name), ["Light", "Dark"]);
        assert_eq!(std::mem::size_of::<Option<Side>>(), 1);
    }
}

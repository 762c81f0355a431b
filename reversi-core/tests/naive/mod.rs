//! A naive 2-D array implementation of the rules, written independently of the bitboards, for the
//! tests to check the fast code against: legal moves, flips and perft.

// Each test binary that includes this module uses a different part of it.
#![allow(dead_code)]

use reversi_core::{Color, Position, Square};

/// The naive board: `cells[row][col]`, 0 empty, 1 black, 2 white.
#[derive(Clone, PartialEq, Debug)]
pub struct Naive {
    /// `cells[row][col]`: 0 empty, 1 black, 2 white.
    pub cells: [[u8; 8]; 8],
    /// The side to move: 1 black, 2 white.
    pub to_move: u8,
}

impl Naive {
    /// The naive board of a position.
    pub fn from(p: &Position) -> Naive {
        let mut cells = [[0u8; 8]; 8];
        for sq in Square::ALL {
            cells[sq.row() as usize][sq.column() as usize] = match p.color_at(sq) {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            };
        }
        Naive {
            cells,
            to_move: if p.side_to_move() == Color::Black {
                1
            } else {
                2
            },
        }
    }

    /// The discs `who` flips by playing at row `r`, column `c` (none if the square is taken).
    pub fn flips(&self, who: u8, r: i32, c: i32) -> Vec<(i32, i32)> {
        if self.cells[r as usize][c as usize] != 0 {
            return vec![];
        }
        let other = 3 - who;
        let mut out = vec![];
        for dr in -1..=1 {
            for dc in -1..=1 {
                if dr == 0 && dc == 0 {
                    continue;
                }
                let mut line = vec![];
                let (mut rr, mut cc) = (r + dr, c + dc);
                while (0..8).contains(&rr)
                    && (0..8).contains(&cc)
                    && self.cells[rr as usize][cc as usize] == other
                {
                    line.push((rr, cc));
                    rr += dr;
                    cc += dc;
                }
                if !line.is_empty()
                    && (0..8).contains(&rr)
                    && (0..8).contains(&cc)
                    && self.cells[rr as usize][cc as usize] == who
                {
                    out.extend(line);
                }
            }
        }
        out
    }

    /// The squares where `who` can play.
    pub fn moves(&self, who: u8) -> Vec<(i32, i32)> {
        let mut v = vec![];
        for r in 0..8 {
            for c in 0..8 {
                if !self.flips(who, r, c).is_empty() {
                    v.push((r, c));
                }
            }
        }
        v
    }
}

/// The square at row `r`, column `c`.
pub fn sq(r: i32, c: i32) -> Square {
    Square::from_coords(c as u8, r as u8).unwrap()
}

impl Naive {
    /// The board after `who` plays at `(r, c)` (which must flip something), the other side to move.
    pub fn play(&self, r: i32, c: i32) -> Naive {
        let who = self.to_move;
        let mut next = self.clone();
        for (fr, fc) in self.flips(who, r, c) {
            next.cells[fr as usize][fc as usize] = who;
        }
        next.cells[r as usize][c as usize] = who;
        next.to_move = 3 - who;
        next
    }

    /// Perft in the OEIS A124004 convention: a forced pass is a ply, and a finished game counts as
    /// one leaf at every deeper ply.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(self.to_move);
        if moves.is_empty() {
            if self.moves(3 - self.to_move).is_empty() {
                return 1;
            }
            let mut passed = self.clone();
            passed.to_move = 3 - self.to_move;
            return passed.perft(depth - 1);
        }
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|(r, c)| self.play(r, c).perft(depth - 1))
            .sum()
    }
}

use jiang::perft;
use jiang::xiangqi::Position;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() >= 3 && args[1] == "perft" {
        let depth: u32 = args[2].parse().unwrap_or(1);
        let fen = args[3..].join(" ");
        let mut pos = if fen.is_empty() {
            Position::startpos()
        } else {
            Position::from_fen(&fen).expect("fen")
        };
        let r = perft::divide(&mut pos, depth);
        for (m, n) in &r.divide {
            println!("{m}: {n}");
        }
        println!(
            "Nodes searched: {} time {} ms nps {}",
            r.nodes,
            r.elapsed.as_millis(),
            r.nps()
        );
    }
}

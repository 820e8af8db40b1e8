//! Serves a mock node with the library's defaults (its request log included, unlike
//! `near-rpc mock`, which keeps less) on `127.0.0.1:PORT` and prints its URL, until the
//! process is killed: the server `scripts/mock-memory.sh` floods beside `near-rpc mock`.
//!
//! ```sh
//! cargo run --release -p near-rpc-mock --example serve -- [PORT]
//! ```

use near_rpc_mock::MockNode;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let port: u16 = std::env::args().nth(1).map_or(Ok(0), |a| a.parse())?;
    let server = MockNode::new().serve(port).await?;
    println!("{}", server.url());
    std::future::pending::<()>().await;
    Ok(())
}
